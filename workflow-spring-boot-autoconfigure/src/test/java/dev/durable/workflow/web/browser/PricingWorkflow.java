package dev.durable.workflow.web.browser;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * Prices an item with one activity or another: the test flips {@link #secondRule} as a
 * deployment would change the code without a version guard, so that replaying an old run
 * is non-deterministic.
 */
@Workflow("pricing")
public class PricingWorkflow {

	/** The changed code; read by workflow code, hence only flipped by the test. */
	static volatile boolean secondRule;

	private final Warehouse warehouse;

	private boolean done;

	public PricingWorkflow(Warehouse warehouse) {
		this.warehouse = warehouse;
	}

	@WorkflowRun
	public String run(String item) {
		String priced = secondRule ? this.warehouse.ship(item) : this.warehouse.reserve(item);
		Workflows.await(() -> this.done);
		return priced;
	}

	@SignalMethod
	public void done() {
		this.done = true;
	}

}
