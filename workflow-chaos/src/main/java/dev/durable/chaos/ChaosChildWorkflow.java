package dev.durable.chaos;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** The child of a chaos run: its step 6, recorded under the parent's workflow id. */
@Workflow("chaos-child")
public class ChaosChildWorkflow {

	private final ChaosSteps steps;

	public ChaosChildWorkflow(ChaosSteps steps) {
		this.steps = steps;
	}

	@WorkflowRun
	public int run(String parentWorkflowId) {
		return this.steps.step(parentWorkflowId, 6);
	}

}
