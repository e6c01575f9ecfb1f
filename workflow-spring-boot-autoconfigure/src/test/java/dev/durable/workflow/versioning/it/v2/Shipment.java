package dev.durable.workflow.versioning.it.v2;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.versioning.it.Steps;

/**
 * Build 2.0 of "shipment": a step added after packing, without
 * {@code Workflows.getVersion} (an incompatible change for runs already past packing).
 */
@Workflow(value = "shipment", versioning = VersioningBehavior.PINNED)
public class Shipment {

	private final Steps steps;

	private boolean go;

	public Shipment(Steps steps) {
		this.steps = steps;
	}

	@WorkflowRun
	public String run(String id) {
		this.steps.step("pack-" + id);
		this.steps.step("weigh-" + id);
		Workflows.await(() -> this.go);
		return "v2:" + this.steps.step("ship-" + id);
	}

	@SignalMethod
	public void go() {
		this.go = true;
	}

}
