package dev.durable.docs.topics;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.docs.topics.FulfilmentWorkflow.Order;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The event topics guide's triggers: an order starts its fulfilment, a cancel event ends
 * it.
 */
class EventTriggersSnippetsTest {

	private final String schema = EmbeddedPostgresSupport.newSchemaName();

	private final WorkflowEngine engine = WorkflowEngine.builder()
		.dataSource(EmbeddedPostgresSupport.pooledDataSource())
		.schema(this.schema)
		.pollInterval(Duration.ofMillis(100))
		.register(FulfilmentWorkflow.class)
		.build()
		.start();

	private final WorkflowClient client = this.engine.client();

	@AfterEach
	void stop() {
		this.engine.shutdown();
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

	private boolean searchable(String orderId) {
		return new JdbcTemplate(EmbeddedPostgresSupport.pooledDataSource()).queryForObject(
				"SELECT count(*) FROM " + this.schema + ".visibility WHERE search_attributes->>'orderId' = ?",
				Integer.class, orderId) == 1;
	}

}
