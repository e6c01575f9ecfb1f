package dev.durable.workflow.web.browser;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** Charges a customer; an amount over 1000 is declined and the run fails. */
@Workflow("invoice")
public class InvoiceWorkflow {

	private final Warehouse warehouse;

	public InvoiceWorkflow(Warehouse warehouse) {
		this.warehouse = warehouse;
	}

	@WorkflowRun
	public String run(int amount) {
		return this.warehouse.charge("c-" + amount, amount);
	}

}
