package dev.durable.docs.topics;

import java.time.Duration;
import java.util.Optional;

import dev.durable.workflow.EventMatch;
import dev.durable.workflow.TopicEvent;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** The event topics guide's workflow: it waits for its order's payment, at most a day. */
@Workflow
public class ShipmentWorkflow {

	/** A payment, as the payment service publishes it on topic "payments". */
	public record Payment(String orderId, String currency, long cents) {
	}

	@WorkflowRun
	public String run(String orderId) {
		// @formatter:off
		// snippet:topics-await
		Optional<TopicEvent<Payment>> paid = Workflows.awaitEvent("payments",
				EventMatch.field("orderId", orderId), Payment.class, Duration.ofDays(1));
		if (paid.isEmpty()) {
			return "canceled: not paid within a day";
		}
		return "shipping " + orderId + " paid " + paid.get().payload().cents() + " cents";
		// end-snippet
		// @formatter:on
	}

}
