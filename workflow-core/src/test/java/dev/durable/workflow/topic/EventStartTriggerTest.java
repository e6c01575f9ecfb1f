package dev.durable.workflow.topic;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.StartOnEvent;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code @StartOnEvent}: an event on the topic starts a run with its payload as input;
 * the workflow id comes from a payload field or the event id, so a repeat starts nothing;
 * a payload that does not fit the input starts nothing; a node that does not register the
 * type dispatches the event and a node of the type starts the run.
 */
class EventStartTriggerTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** An order, as published on topic "orders". */
	public record Order(String orderId, int quantity) {
	}

	/** Started by each order; its workflow id is the order id. */
	@Workflow("fulfilment")
	@StartOnEvent(topic = "orders", workflowIdField = "orderId")
	public static class FulfilmentWorkflow {

		@WorkflowRun
		public String run(Order order) {
			return "shipped " + order.quantity() + " of " + order.orderId();
		}

	}

	/** Started by each audit event; its workflow id derives from the event id. */
	@Workflow("audit")
	@StartOnEvent(topic = "audit")
	public static class AuditWorkflow {

		@WorkflowRun
		public String run(Map<String, Object> entry) {
			return "audited " + entry.get("what");
		}

	}

	/** A type with a trigger that cannot work. */
	@Workflow("bad-batch")
	@StartOnEvent(topic = "x", batchSize = 5)
	public static class BadBatchWorkflow {

		@WorkflowRun
		public void run() {
		}

	}

	private WorkflowEngine engine() {
		return this.engines
			.start(this.engines.builder().register(FulfilmentWorkflow.class).register(AuditWorkflow.class));
	}

	@Test
	void anEventStartsARunWithItsPayloadAndARepeatStartsNothing() {
		WorkflowEngine engine = engine();
		engine.client().publish("orders", new Order("order-5", 3));
		assertThat(result(engine, "order-5")).isEqualTo("shipped 3 of order-5");
		// another event naming the same order, after the run closed: no second run
		engine.client().publish("orders", new Order("order-5", 9));
		engine.client().publish("orders", new Order("order-6", 1));
		assertThat(result(engine, "order-6")).isEqualTo("shipped 1 of order-6");
		assertThat(runsOf("order-5")).isEqualTo(1);
		assertThat(this.engines.count("event_action")).isZero();
		Engines.assertReplays(engine, engine.client().handle("order-5").runId());
	}

	@Test
	void theWorkflowIdComesFromTheEventIdWhenNoFieldIsNamed() {
		WorkflowEngine engine = engine();
		engine.client().publish("audit", Map.of("what", "login"), "audit-1");
		engine.client().publish("audit", Map.of("what", "login again"), "audit-1"); // a
																					// repeat:
																					// no
																					// event
		assertThat(result(engine, "audit:audit:audit-1")).isEqualTo("audited login");
		assertThat(runsOf("audit:audit:audit-1")).isEqualTo(1);
	}

	@Test
	void aPayloadThatDoesNotFitTheInputStartsNothing() {
		WorkflowEngine engine = engine();
		engine.client().publish("orders", Map.of("orderId", "order-7", "quantity", "many"));
		engine.client().publish("orders", Map.of("quantity", 2)); // no order id
		engine.client().publish("orders", new Order("order-8", 2));
		assertThat(result(engine, "order-8")).isEqualTo("shipped 2 of order-8");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("event_action") == 0);
		assertThat(runsOf("order-7")).isZero();
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
	}

	@Test
	void aNodeOfAnotherTypeDispatchesAndANodeOfTheTypeStartsTheRunLater() {
		// a node of the type declared the trigger, then stopped
		this.engines.start(this.engines.builder().register(FulfilmentWorkflow.class)).shutdown();
		// a node that registers only the audit type, and a client-only node that
		// publishes
		this.engines.start(this.engines.builder().register(AuditWorkflow.class));
		WorkflowEngine publisher = this.engines.start(this.engines.builder().worker(false));
		publisher.client().publish("orders", new Order("order-9", 4));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("event_action") == 1);
		assertThat(runsOf("order-9")).isZero();
		WorkflowEngine fulfilment = this.engines.start(this.engines.builder().register(FulfilmentWorkflow.class));
		assertThat(result(fulfilment, "order-9")).isEqualTo("shipped 4 of order-9");
		assertThat(fulfilment.client().handle("order-9").describe().status()).isEqualTo(WorkflowStatus.COMPLETED);
	}

	@Test
	void aTriggerThatCannotWorkFailsTheNodesStart() {
		assertThatThrownBy(() -> this.engines.start(this.engines.builder().register(BadBatchWorkflow.class)))
			.hasMessageContaining("batchWindow");
	}

	private String result(WorkflowEngine engine, String workflowId) {
		await().atMost(Duration.ofSeconds(30)).until(() -> runsOf(workflowId) == 1);
		return engine.client().handle(workflowId, String.class).result(Duration.ofSeconds(30));
	}

	private int runsOf(String workflowId) {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".workflow_run WHERE workflow_id = ?",
					Integer.class, workflowId);
	}

}
