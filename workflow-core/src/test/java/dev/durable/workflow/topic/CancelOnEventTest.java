package dev.durable.workflow.topic;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.CancelOnEvent;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @CancelOnEvent}: an event on the topic cancels the open runs of the type whose
 * search attribute equals its payload field, and no other run; an event without the field
 * cancels nothing.
 */
class CancelOnEventTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Waits a week for its order, unless the order is canceled. */
	@Workflow("reminder")
	@CancelOnEvent(topic = "order-canceled", field = "order.id", searchAttribute = "orderId")
	public static class ReminderWorkflow {

		@WorkflowRun
		public String run(String orderId) {
			Workflows.upsertSearchAttributes(Map.of("orderId", orderId));
			Workflows.sleep(Duration.ofDays(7));
			return "reminded " + orderId;
		}

	}

	@Test
	void anEventCancelsTheRunsItNamesAndNoOther() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(ReminderWorkflow.class));
		WorkflowHandle<String> first = engine.client()
			.start(ReminderWorkflow::run, "o-1", StartOptions.withId("remind-1"));
		WorkflowHandle<String> again = engine.client()
			.start(ReminderWorkflow::run, "o-1", StartOptions.withId("remind-1b"));
		WorkflowHandle<String> other = engine.client()
			.start(ReminderWorkflow::run, "o-2", StartOptions.withId("remind-2"));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.engines.jdbc()
				.queryForObject("SELECT count(*) FROM " + this.engines.schema
						+ ".visibility WHERE search_attributes ? 'orderId'", Integer.class) == 3);

		engine.client().publish("order-canceled", Map.of("reason", "no id")); // names
																				// nothing
		engine.client().publish("order-canceled", Map.of("order", Map.of("id", "o-1")), "cancel-o-1");

		await().atMost(Duration.ofSeconds(30))
			.until(() -> first.describe().status() == WorkflowStatus.CANCELED
					&& again.describe().status() == WorkflowStatus.CANCELED);
		assertThat(first.history()).extracting(HistoryEvent::type).contains("CANCEL_REQUESTED");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("event_action") == 0);
		assertThat(other.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
	}

}
