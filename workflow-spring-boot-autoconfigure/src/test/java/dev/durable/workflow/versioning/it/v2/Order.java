package dev.durable.workflow.versioning.it.v2;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.versioning.it.Steps;

/** Build 2.0 of "order": the same commands, a new result (a compatible change). */
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
		return "v2:" + first + "," + this.steps.step("b-" + id);
	}

	@SignalMethod
	public void go() {
		this.go = true;
	}

}
