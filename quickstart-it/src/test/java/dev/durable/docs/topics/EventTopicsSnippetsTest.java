package dev.durable.docs.topics;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.docs.topics.FulfilmentWorkflow.Order;
import dev.durable.docs.topics.ShipmentWorkflow.Payment;
import dev.durable.workflow.client.PublishedEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The event topics guide's snippets: a run waits for a payment, a service publishes it.
 */
class EventTopicsSnippetsTest {

	private final String schema = EmbeddedPostgresSupport.newSchemaName();

	private final WorkflowEngine engine = WorkflowEngine.builder()
		.dataSource(EmbeddedPostgresSupport.pooledDataSource())
		.schema(this.schema)
		.pollInterval(Duration.ofMillis(100))
		.register(ShipmentWorkflow.class, FulfilmentWorkflow.class)
		.build()
		.start();

	private final WorkflowClient client = this.engine.client();

	@AfterEach
	void stop() {
		this.engine.shutdown();
	}

	@Test
	void aPublishedPaymentResumesTheShipmentWaitingForIt() {
		WorkflowHandle<String> shipment = this.client.start(ShipmentWorkflow::run, "order-17",
				StartOptions.withId("ship-order-17"));
		await().atMost(Duration.ofSeconds(30)).until(() -> waits() == 1);
		// @formatter:off
		// snippet:topics-publish
		PublishedEvent event = client.publish("payments",
				new Payment("order-17", "EUR", 4200), "payment-8812");   // the payment's own id
		// end-snippet
		// @formatter:on
		assertThat(event.stored()).isTrue();
		assertThat(this.client.publish("payments", new Payment("order-17", "EUR", 4200), "payment-8812").stored())
			.isFalse();
		assertThat(shipment.result(Duration.ofSeconds(30))).isEqualTo("shipping order-17 paid 4200 cents");
	}

	@Test
	void anOrderStartsItsFulfilmentAndACancelEventCancelsIt() {
		this.client.publish("orders", new Order("order-31", 2));
		await().atMost(Duration.ofSeconds(30)).until(() -> searchable("order-31"));
		assertThat(this.client.handle("order-31").describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		this.client.publish("order-canceled", Map.of("orderId", "order-31"));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.client.handle("order-31").describe().status() == WorkflowStatus.CANCELED);
	}

	private int waits() {
		return new JdbcTemplate(EmbeddedPostgresSupport.pooledDataSource())
			.queryForObject("SELECT count(*) FROM " + this.schema + ".event_wait", Integer.class);
	}

	private boolean searchable(String orderId) {
		return new JdbcTemplate(EmbeddedPostgresSupport.pooledDataSource()).queryForObject(
				"SELECT count(*) FROM " + this.schema + ".visibility WHERE search_attributes->>'orderId' = ?",
				Integer.class, orderId) == 1;
	}

}
