package dev.durable.docs.queues;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** The workflow the guide starts into the {@code payments} queue. */
@Workflow("payment")
public class PaymentWorkflow {

	@WorkflowRun
	public String run(Payment payment) {
		return payment.id();
	}

}
