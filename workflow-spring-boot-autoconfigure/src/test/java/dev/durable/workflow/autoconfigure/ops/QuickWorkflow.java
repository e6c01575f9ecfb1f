package dev.durable.workflow.autoconfigure.ops;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

@Workflow("ops-quick")
public class QuickWorkflow {

	private final Chores chores;

	public QuickWorkflow(Chores chores) {
		this.chores = chores;
	}

	@WorkflowRun
	public String run(String input) {
		return this.chores.tidy(input) + ", " + this.chores.flaky(input);
	}

}
