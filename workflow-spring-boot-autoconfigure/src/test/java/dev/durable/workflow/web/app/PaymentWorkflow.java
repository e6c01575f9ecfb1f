package dev.durable.workflow.web.app;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** A payment whose charge completes asynchronously (see {@link Payments}). */
@Workflow("payment")
public class PaymentWorkflow {

	private final Payments payments;

	public PaymentWorkflow(Payments payments) {
		this.payments = payments;
	}

	@WorkflowRun
	public String run(String order) {
		return "paid " + order + ": " + this.payments.charge(order);
	}

}
