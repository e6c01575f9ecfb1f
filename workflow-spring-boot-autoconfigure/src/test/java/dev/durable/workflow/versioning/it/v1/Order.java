package dev.durable.workflow.versioning.it.v1;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.versioning.it.Steps;

/** Build 1.0 of "order": a step, a signal, another step. */
@Workflow(value = "order", versioning = VersioningBehavior.PINNED)
public class Order {

	private final Steps steps;

	private boolean go;

	public Order(Steps steps) {
		this.steps = steps;
	}

	@WorkflowRun
	public String run(String id) {
		String first = this.steps.step("a-" + id);
		Workflows.await(() -> this.go);
		return "v1:" + first + "," + this.steps.step("b-" + id);
	}

	@SignalMethod
	public void go() {
		this.go = true;
	}

}
