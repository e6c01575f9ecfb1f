package dev.durable.docs.workflows;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** Runs the guide's saga as workflow code. */
@Workflow("saga-order")
public class SagaWorkflow {

	private final Payments payments;

	private final Shipping shipping;

	public SagaWorkflow(Payments payments, Shipping shipping) {
		this.payments = payments;
		this.shipping = shipping;
	}

	@WorkflowRun
	public String run(Order order) {
		new WorkflowsGuideSnippets(this.payments, this.shipping, null).saga(order);
		return "booked " + order.id();
	}

}
