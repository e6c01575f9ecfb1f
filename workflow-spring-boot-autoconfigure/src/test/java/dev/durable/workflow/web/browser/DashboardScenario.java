package dev.durable.workflow.web.browser;

import java.util.Map;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;

/**
 * The runs the browser test finds on the dashboard: shipments waiting for approval (with
 * search attributes and memo), a completed and a failed invoice, a ledger sync retrying
 * its activity, a stuck audit and a fulfillment with children and a continue-as-new
 * chain.
 */
final class DashboardScenario {

	private DashboardScenario() {
	}

	static void start(WorkflowClient client) {
		for (int i = 1; i <= 3; i++) {
			client.start("shipment", new ShipmentWorkflow.Shipment("item-" + i, "c-" + i),
					StartOptions.builder()
						.workflowId("shipment-" + i)
						.searchAttributes(Map.of("customer", "c-" + i, "amount", 100 * i))
						.memo(Map.of("channel", (i == 1) ? "web" : "phone"))
						.build());
		}
		client.start("invoice", 120, StartOptions.withId("invoice-ok"));
		client.start("invoice", 5000, StartOptions.withId("invoice-declined"));
		client.start("ledger-sync", "acct-7", StartOptions.withId("ledger-sync-7"));
		client.start("audit", null, StartOptions.withId("audit-1"));
		client.start("fulfillment", 1, StartOptions.withId("fulfillment-1"));
	}

}
