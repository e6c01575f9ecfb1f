package dev.durable.docs.activities.plain;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** The workflow that calls {@link Reservations}. */
@Workflow("order")
public class OrderWorkflow {

	private final Reservations reservations;

	public OrderWorkflow(Reservations reservations) {
		this.reservations = reservations;
	}

	@WorkflowRun
	public String run(String orderId) throws Exception {
		this.reservations.reserve(orderId);
		return orderId;
	}

}
