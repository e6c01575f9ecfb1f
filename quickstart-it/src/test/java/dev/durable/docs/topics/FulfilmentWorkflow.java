package dev.durable.docs.topics;

import java.time.Duration;
import java.util.Map;

import dev.durable.workflow.CancelOnEvent;
import dev.durable.workflow.StartOnEvent;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** The event topics guide's triggered workflow: started by an order, canceled with it. */
// @formatter:off
// snippet:topics-triggers
@Workflow
@StartOnEvent(topic = "orders", workflowIdField = "orderId")
@CancelOnEvent(topic = "order-canceled", field = "orderId")   // its runs' search attribute "orderId"
public class FulfilmentWorkflow {

	/** An order, as the shop publishes it. */
	public record Order(String orderId, int items) {
	}

	@WorkflowRun
	public String run(Order order) {
		Workflows.upsertSearchAttributes(Map.of("orderId", order.orderId()));
		// end-snippet
		// @formatter:on
		Workflows.sleep(Duration.ofDays(2)); // the warehouse's lead time
		return "shipped " + order.items() + " item(s) of " + order.orderId();
	}

}
