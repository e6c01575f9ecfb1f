package dev.durable.workflow.topic;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.EventMatch;
import dev.durable.workflow.TopicEvent;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.PublishedEvent;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Events on topics: one published event resumes every run whose wait it matches, each
 * exactly once, across nodes; a match that fits no wait resumes none; a repeated event id
 * is a no-op; a wait may time out; a wait sees only the events after it began unless it
 * asks for a position; the received event is history, so a replay returns it.
 */
class EventTriggerTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/**
	 * What a run waits for.
	 *
	 * @param field the payload field to match ({@code null}: any event)
	 * @param value its value
	 * @param after the position to count from, or {@code null}
	 * @param timeoutSeconds the wait's timeout, or {@code null}
	 */
	public record Wait(String field, Object value, Long after, Long timeoutSeconds) {

		static Wait on(String field, Object value) {
			return new Wait(field, value, null, null);
		}

	}

	/** Waits for one event on topic "orders" and answers what it got. */
	@Workflow("topic-waiter")
	public static class WaiterWorkflow {

		@WorkflowRun
		public String run(Wait wait) {
			EventMatch match = (wait.field() != null) ? EventMatch.field(wait.field(), wait.value()) : EventMatch.any();
			if (wait.after() != null) {
				match = match.after(wait.after());
			}
			if (wait.timeoutSeconds() != null) {
				Optional<TopicEvent<Map>> event = Workflows.awaitEvent("orders", match, Map.class,
						Duration.ofSeconds(wait.timeoutSeconds()));
				return event.map(EventTriggerTest::describe).orElse("timed out");
			}
			return describe(Workflows.awaitEvent("orders", match, Map.class));
		}

	}

	/** Takes two events of a topic one after the other, missing none between them. */
	@Workflow("topic-reader")
	public static class ReaderWorkflow {

		@WorkflowRun
		public String run(String topic) {
			TopicEvent<Map> first = Workflows.awaitEvent(topic, EventMatch.any(), Map.class);
			// the code is busy meanwhile: the next event may be published before the wait
			Workflows.sleep(Duration.ofMinutes(1));
			TopicEvent<Map> second = Workflows.awaitEvent(topic, EventMatch.any().after(first.position()), Map.class);
			return first.payload().get("n") + "," + second.payload().get("n");
		}

	}

	static String describe(TopicEvent<Map> event) {
		return event.eventId() + "@" + event.position() + ":" + event.payload().get("n");
	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder().register(WaiterWorkflow.class).register(ReaderWorkflow.class));
	}

	private WorkflowHandle<String> wait(WorkflowEngine engine, String id, Wait wait) {
		return engine.client().start(WaiterWorkflow::run, wait, StartOptions.withId(id));
	}

	private void awaitWaits(int count) {
		await().atMost(Duration.ofSeconds(60)).until(() -> this.engines.count("event_wait") == count);
	}

	private static long received(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).filter("TOPIC_EVENT_RECEIVED"::equals).count();
	}

	@Test
	void oneEventResumesEveryRunWaitingForItAcrossTwoNodesEachOnce() {
		WorkflowEngine one = engine();
		WorkflowEngine two = engine();
		List<WorkflowHandle<String>> eu = new ArrayList<>();
		for (int i = 0; i < 1000; i++) {
			eu.add(wait((i % 2 == 0) ? one : two, "eu-" + i, Wait.on("region", "eu")));
		}
		List<WorkflowHandle<String>> us = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			us.add(wait(two, "us-" + i, Wait.on("region", "us")));
		}
		awaitWaits(1005);

		PublishedEvent published = one.client().publish("orders", Map.of("region", "eu", "n", 1), "order-1");
		assertThat(published.stored()).isTrue();

		await().atMost(Duration.ofSeconds(120))
			.until(() -> eu.stream().allMatch((h) -> h.describe().status() == WorkflowStatus.COMPLETED));
		for (WorkflowHandle<String> handle : eu) {
			assertThat(handle.result()).isEqualTo("order-1@1:1");
		}
		assertThat(eu.stream().mapToLong(EventTriggerTest::received).sum()).isEqualTo(1000);
		assertThat(us).allMatch((h) -> h.describe().status() == WorkflowStatus.RUNNING);
		assertThat(this.engines.count("event_wait")).isEqualTo(5);
		assertThat(this.engines.count("event_delivery")).isZero();
		Engines.assertReplays(one, eu.get(0).runId());
		Engines.assertReplays(two, eu.get(1).runId());
	}

	@Test
	void aMatchThatFitsNoWaitResumesNone() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> eu = wait(engine, "eu", Wait.on("region", "eu"));
		WorkflowHandle<String> number = wait(engine, "seven", Wait.on("count", 7));
		WorkflowHandle<String> nested = wait(engine, "nested", Wait.on("customer.id", "c-1"));
		awaitWaits(3);

		engine.client().publish("orders", Map.of("region", "us", "n", 1));
		engine.client().publish("orders", Map.of("count", "7", "n", 2)); // a string: not
																			// the number
																			// 7
		engine.client().publish("orders", Map.of("customer", Map.of("id", "c-2"), "n", 3));
		engine.client().publish("invoices", Map.of("region", "eu", "n", 4)); // another
																				// topic
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.engines.jdbc()
				.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".topic_event WHERE position IS NULL",
						Integer.class) == 0);
		assertThat(List.of(eu, number, nested)).allMatch((h) -> h.describe().status() == WorkflowStatus.RUNNING)
			.allMatch((h) -> received(h) == 0);
		assertThat(this.engines.count("event_wait")).isEqualTo(3);
		assertThat(nested.waitingOn()).anySatisfy((wait) -> {
			assertThat(wait.kind()).isEqualTo(RunWait.Kind.EVENT);
			assertThat(wait.name()).isEqualTo("orders");
			assertThat(wait.detail()).contains("customer.id", "c-1");
		});

		engine.client().publish("orders", Map.of("count", 7, "n", 5));
		engine.client().publish("orders", Map.of("customer", Map.of("id", "c-1", "name", "Ada"), "n", 6));
		assertThat(number.result(Duration.ofSeconds(30))).endsWith(":5");
		assertThat(nested.result(Duration.ofSeconds(30))).endsWith(":6");
		assertThat(eu.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
	}

	@Test
	void aRepeatedEventIdIsANoOp() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> reader = engine.client()
			.start(ReaderWorkflow::run, "payments", StartOptions.withId("reader"));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("event_wait") == 1);

		PublishedEvent first = engine.client().publish("payments", Map.of("n", 1), "pay-1");
		PublishedEvent repeat = engine.client().publish("payments", Map.of("n", 99), "pay-1");
		assertThat(first.stored()).isTrue();
		assertThat(repeat.stored()).isFalse();
		assertThat(repeat.eventId()).isEqualTo("pay-1");
		assertThat(this.engines.count("topic_event")).isEqualTo(1);

		// the reader took pay-1 and sleeps; the repeat must not count as its second event
		await().atMost(Duration.ofSeconds(10)).until(() -> received(reader) == 1);
		this.engines.clock.advance(Duration.ofMinutes(2));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("event_wait") == 1);
		assertThat(reader.describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		engine.client().publish("payments", Map.of("n", 2), "pay-2");
		assertThat(reader.result(Duration.ofSeconds(30))).isEqualTo("1,2");
		Engines.assertReplays(engine, reader.runId());
	}

	@Test
	void aWaitThatAsksForAPositionSeesTheEventsPublishedWhileItsRunWasBusy() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> reader = engine.client()
			.start(ReaderWorkflow::run, "ticks", StartOptions.withId("ticks"));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("event_wait") == 1);
		engine.client().publish("ticks", Map.of("n", 1));
		await().atMost(Duration.ofSeconds(10)).until(() -> received(reader) == 1);
		// published while the reader sleeps, before its second wait began
		engine.client().publish("ticks", Map.of("n", 2));
		engine.client().publish("ticks", Map.of("n", 3));
		awaitDispatched();
		this.engines.clock.advance(Duration.ofMinutes(2));
		assertThat(reader.result(Duration.ofSeconds(30))).isEqualTo("1,2");
	}

	@Test
	void anEventPublishedBeforeAWaitBeganIsNotSeen() {
		WorkflowEngine engine = engine();
		engine.client().publish("orders", Map.of("region", "eu", "n", 1));
		awaitDispatched();
		WorkflowHandle<String> late = wait(engine, "late", Wait.on("region", "eu"));
		WorkflowHandle<String> asking = wait(engine, "asking", new Wait("region", "eu", 0L, null));
		assertThat(asking.result(Duration.ofSeconds(30))).endsWith("@1:1");
		awaitWaits(1);
		assertThat(late.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		engine.client().publish("orders", Map.of("region", "eu", "n", 2));
		assertThat(late.result(Duration.ofSeconds(30))).endsWith("@2:2");
	}

	@Test
	void aWaitTimesOutAndAnEventAfterwardsReachesNothing() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> waiter = wait(engine, "patient", new Wait("region", "eu", null, 3600L));
		awaitWaits(1);
		this.engines.clock.advance(Duration.ofHours(2));
		assertThat(waiter.result(Duration.ofSeconds(30))).isEqualTo("timed out");
		assertThat(this.engines.count("event_wait")).isZero();
		engine.client().publish("orders", Map.of("region", "eu", "n", 1));
		awaitDispatched();
		assertThat(received(waiter)).isZero();
		assertThat(waiter.history()).extracting(HistoryEvent::type).contains("TOPIC_WAIT_STARTED", "TOPIC_WAIT_ENDED");
		Engines.assertReplays(engine, waiter.runId());
	}

	@Test
	void aWaitingRunWhoseNodeStoppedResumesOnAnotherNodeOnce() {
		WorkflowEngine first = engine();
		WorkflowHandle<String> waiter = wait(first, "survivor", Wait.on("region", "eu"));
		awaitWaits(1);
		first.shutdown();
		// published while no node runs: the dispatch waits for the next node
		PublishedEvent event = this.engines.start(this.engines.builder().worker(false).register(WaiterWorkflow.class))
			.client()
			.publish("orders", Map.of("region", "eu", "n", 1));
		WorkflowEngine second = engine();
		assertThat(second.client().handle("survivor", String.class).result(Duration.ofSeconds(30)))
			.isEqualTo(event.eventId() + "@1:1");
		assertThat(received(waiter)).isEqualTo(1);
	}

	@Test
	void badTopicsEventIdsAndMatchesAreRefusedAndChangeNothing() {
		WorkflowEngine engine = engine();
		assertThatThrownBy(() -> engine.client().publish(" ", Map.of())).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("topic");
		assertThatThrownBy(() -> engine.client().publish("orders", Map.of(), ""))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("event id");
		assertThatThrownBy(() -> EventMatch.field("a b", 1)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> EventMatch.field("a", null)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> EventMatch.field("a", List.of())).isInstanceOf(IllegalArgumentException.class);
		assertThat(this.engines.count("topic_event")).isZero();
	}

	private void awaitDispatched() {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.engines.jdbc()
				.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".topic_event WHERE position IS NULL",
						Integer.class) == 0
					&& this.engines.count("event_delivery") == 0);
	}

}
