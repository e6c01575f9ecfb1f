package dev.durable.workflow.internal.history;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.ParentClosePolicy;
import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.failure.TimeoutType;
import dev.durable.workflow.internal.history.Event.ActivityScheduled;
import dev.durable.workflow.internal.history.Event.WorkflowCompleted;
import dev.durable.workflow.internal.support.InternalJson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * History rows: rows written before events were a sealed set of kinds read into the right
 * kinds and write back byte for byte, and the token reader reads every field of every
 * kind exactly as the generic binding of the flat form does (the reference).
 */
class EventReaderTest {

	private static final ActivityOptions OPTIONS = ActivityOptions.builder()
		.startToCloseTimeout(Duration.ofSeconds(30))
		.heartbeatTimeout(Duration.ofMillis(1500))
		.retryPolicy(new RetryPolicy(Duration.ofMillis(200), 1.5, Duration.ofMinutes(1), 4, List.of("Fatal")))
		.taskQueue("gpu")
		.priority(3)
		.partitionKey("tenant-7")
		.build();

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * One of every kind, as {@code events-stored-before-sealed-types.json} holds them:
	 * that file is what the single record event type these kinds replaced wrote for the
	 * same events.
	 */
	private static List<Event> everyKind() {
		FailureInfo cause = FailureInfo.application("Inner", "inner \"quoted\"\nline", true, "at x\n\tat y",
				new byte[] { 0, -1, 7 }, null);
		FailureInfo failure = new FailureInfo("ACTIVITY", "Outer", "outer", false, null, null, cause, null, "charge",
				4L, 3);
		ChildOptions child = new ChildOptions("child-1", ParentClosePolicy.ABANDON)
			.withExecutionTimeout(Duration.ofHours(2))
			.withTaskQueue("children");
		return List.of(Event.workflowStarted("order", bytes("{\"item\":\"tea\",\"n\":2}")),
				Event.workflowStarted("order", bytes("[]"))
					.dueAt(Instant.parse("2026-12-03T18:00:00Z"))
					.withSeed("seed-1"),
				Event.activityScheduled(1, "charge", bytes("[\"card\",12.5]"), OPTIONS),
				Event.activityScheduled(2, "ship", bytes("[]"), ActivityOptions.DEFAULT),
				Event.activityCompleted(1, bytes("\"ok \\u00e9 ✓\"")), Event.activityCompleted(2, null),
				Event.activityFailed(3, failure), Event.activityCancelRequested(2, FailureInfo.canceled("stop")),
				Event.activityCancelRequested(2, null), Event.localActivity(10, "lookup", bytes("\"x\""), null),
				Event.localActivity(11, "lookup", null, failure),
				Event.timerStarted(4, Instant.parse("2026-12-03T17:00:00.123456789Z")), Event.timerFired(4),
				Event.timerCanceled(5), Event.sideEffect(5, new byte[0]), Event.versionMarker("fix-1", 2),
				Event.cancelRequested("operator said so"), Event.cancelRequested(null),
				Event.startChild(6, "child-type", "child-1", bytes("{}"), "ALLOW_DUPLICATE", child),
				Event.childStarted(6, "7b0c5f7e-2f4b-4b8e-9d0a-1a2b3c4d5e6f"),
				Event.childStartFailed(7, FailureInfo.canceled("no")), Event.childClosed(6, bytes("1"), null),
				Event.childClosed(7, null, FailureInfo.canceled("gone")),
				Event.external(8, "other-wf", null, "poke", bytes("{\"a\":[1,2,{\"b\":null}]}")),
				Event.external(9, "other-wf", "run-9", null, null), Event.externalDelivered(8, null),
				Event.externalDelivered(9, FailureInfo.canceled("not found")),
				Event.attributes(EventType.WORKFLOW_ATTRIBUTES, bytes("{\"k\":\"v\"}")),
				Event.attributes(EventType.UPSERT_MEMO, bytes("{\"m\":null}")),
				Event.attributes(EventType.UPSERT_SEARCH_ATTRIBUTES, bytes("{\"s\":1}")),
				Event.eventSet("status", bytes("\"ready\"")), Event.streamWrite("log", 3, bytes("\"line\"")),
				Event.streamClosed("log", 4), Event.signalReceived("addNote", bytes("\"leave it\"")),
				Event.updateAccepted("u-1", "approve", bytes("{\"by\":\"ann\"}")),
				Event.updateCompleted("u-1", null, FailureInfo.timeout(TimeoutType.START_TO_CLOSE, "late", cause)),
				Event.updateCompleted("u-2", bytes("true"), null), Event.continuedAsNew(bytes("{\"page\":2}")),
				Event.completed(bytes("42")), Event.failed(FailureInfo.terminated("stop")),
				Event.canceled(FailureInfo.canceled("bye")),
				Event.closedOutsideTasks(EventType.WORKFLOW_TERMINATED, FailureInfo.terminated("why"), "why"),
				Event.closedOutsideTasks(EventType.WORKFLOW_TIMED_OUT,
						FailureInfo.timeout(TimeoutType.START_TO_CLOSE, "late", null), "late"));
	}

	/** The kinds added after the sealed types: operations on a pending activity. */
	private static List<Event> activityOperations() {
		return List.of(Event.activityPaused(1, "by hand", null),
				Event.activityPaused(1, "exhausted", Event.ActivityPaused.BY_RETRY_POLICY), Event.activityUnpaused(1),
				Event.activityReset(1, true), Event.activityReset(1, false),
				Event.activityOptionsUpdated(1,
						OPTIONS.toBuilder()
							.retryPolicy(OPTIONS.retryPolicy().toBuilder().pauseWhenExhausted().build())
							.build()));
	}

	/** The kinds of waits for topic events. */
	private static List<Event> topicWaits() {
		return List.of(new Event.TopicWaitStarted(4, "orders", "{\"orderId\":\"o-1\"}", null),
				new Event.TopicWaitStarted(5, "ticks", "{}", 17L), new Event.TopicWaitEnded(5),
				new Event.TopicEventReceived(4, "orders", "pay-1", 42, bytes("{\"orderId\":\"o-1\"}"),
						Instant.parse("2026-12-07T10:00:00Z")));
	}

	@Test
	void topicWaitsReadAsTheRecordBindingDoes() {
		byte[] row = EventCodec.write(topicWaits());
		assertThat(EventCodec.read(row)).usingRecursiveComparison().isEqualTo(readBound(row));
		assertThat(EventCodec.read(row)).usingRecursiveComparison().isEqualTo(topicWaits());
	}

	@Test
	void activityOperationsReadAsTheRecordBindingDoes() {
		byte[] row = EventCodec.write(activityOperations());
		assertThat(EventCodec.read(row)).usingRecursiveComparison().isEqualTo(readBound(row));
		assertThat(EventCodec.read(row)).usingRecursiveComparison().isEqualTo(activityOperations());
		assertThat(new String(row, StandardCharsets.UTF_8)).contains("\"pauseWhenExhausted\":true");
	}

	/**
	 * The generic record binding of the flat form, which the token reader replaced: the
	 * reference it must read as.
	 */
	private static List<Event> readBound(byte[] row) {
		List<StoredEvent> stored = InternalJson.MAPPER.readValue(row, new TypeReference<List<StoredEvent>>() {
		});
		return stored.stream().map(StoredEvent::toEvent).toList();
	}

	private static byte[] storedBeforeSealedTypes() throws IOException {
		try (InputStream in = EventReaderTest.class.getResourceAsStream("events-stored-before-sealed-types.json")) {
			return in.readAllBytes();
		}
	}

	@Test
	void rowsStoredBeforeTheSealedTypesReadIntoTheirKindsAndWriteBackByteForByte() throws IOException {
		byte[] row = storedBeforeSealedTypes();
		List<Event> expected = everyKind();

		List<Event> read = EventCodec.read(row);

		assertThat(read).hasSameSizeAs(expected);
		for (int i = 0; i < read.size(); i++) {
			assertThat(read.get(i)).as("event %d (%s)", i, expected.get(i).type())
				.isExactlyInstanceOf(expected.get(i).getClass())
				.usingRecursiveComparison()
				.isEqualTo(expected.get(i));
		}
		assertThat(new String(EventCodec.write(read), StandardCharsets.UTF_8))
			.isEqualTo(new String(row, StandardCharsets.UTF_8));
		assertThat(EventCodec.write(expected)).isEqualTo(row);
	}

	@Test
	void everyEventTypeHasItsOwnKind() {
		Set<EventType> covered = EnumSet.noneOf(EventType.class);
		List<Event> all = new ArrayList<>(everyKind());
		all.addAll(activityOperations());
		all.addAll(topicWaits());
		for (Event event : all) {
			covered.add(event.type());
			assertThat(StoredEvent.of(event).type()).isEqualTo(event.type());
			assertThat(StoredEvent.of(event).toEvent()).usingRecursiveComparison().isEqualTo(event);
		}
		assertThat(covered).containsExactlyInAnyOrder(EventType.values());
	}

	@Test
	void equalityIsWhatReplayMatchesBy() {
		FailureInfo one = FailureInfo.canceled("one");
		FailureInfo other = FailureInfo.canceled("other");
		assertThat(Event.activityScheduled(1, "charge", bytes("[1]"), OPTIONS))
			.isEqualTo(Event.activityScheduled(1, "charge", bytes("[1]"), ActivityOptions.DEFAULT))
			.hasSameHashCodeAs(Event.activityScheduled(1, "charge", bytes("[1]"), ActivityOptions.DEFAULT))
			.isNotEqualTo(Event.activityScheduled(1, "charge", bytes("[2]"), OPTIONS))
			.isNotEqualTo(Event.activityScheduled(2, "charge", bytes("[1]"), OPTIONS));
		assertThat(Event.activityFailed(1, one)).isEqualTo(Event.activityFailed(1, other));
		assertThat(Event.childClosed(1, null, one)).isEqualTo(Event.childClosed(1, null, other))
			.isNotEqualTo(Event.childClosed(1, bytes("1"), one));
		assertThat(Event.timerStarted(1, Instant.EPOCH)).isNotEqualTo(Event.timerStarted(1, Instant.MAX));
		assertThat(Event.timerFired(1)).isNotEqualTo(Event.timerCanceled(1));
		assertThat(Event.startChild(1, "t", "id", null, "ALLOW_DUPLICATE", null))
			.isEqualTo(Event.startChild(1, "t", "id", null, "ALLOW_DUPLICATE", new ChildOptions("id", null)))
			.isNotEqualTo(Event.startChild(1, "t", "id", null, "REJECT_DUPLICATE", null));
		// replay matches commands by kind, sequence number, name, version and id only
		assertThat(Event.timerStarted(1, Instant.EPOCH).sameCommand(Event.timerStarted(1, Instant.MAX))).isTrue();
		assertThat(Event.sideEffect(1, bytes("1")).sameCommand(Event.sideEffect(1, null))).isTrue();
		assertThat(Event.versionMarker("fix", 1).sameCommand(Event.versionMarker("fix", 2))).isFalse();
		assertThat(Event.timerFired(1).sameCommand(Event.timerCanceled(1))).isFalse();
		assertThat(Event.updateCompleted("u-1", null, null).describe()).isEqualTo("UPDATE_COMPLETED[u-1]");
		assertThat(Event.activityScheduled(3, "charge", null, OPTIONS).describe())
			.isEqualTo("ACTIVITY_SCHEDULED#3(charge)");
	}

	@Test
	void readsEveryEventKindAsTheRecordBindingDoes() {
		List<Event> written = everyKind();
		byte[] row = EventCodec.write(written);
		List<Event> read = EventCodec.read(row);
		List<Event> bound = readBound(row);
		assertThat(read).hasSize(written.size());
		for (int i = 0; i < read.size(); i++) {
			// component by component: equals compares only what replay matches
			// commands by
			assertThat(read.get(i)).as("event %d (%s)", i, written.get(i).type())
				.usingRecursiveComparison()
				.isEqualTo(bound.get(i))
				.isEqualTo(written.get(i));
		}
	}

	@Test
	void activityOptionsThatRepeatAreReadOnceAndShared() {
		List<Event> read = EventCodec
			.read(EventCodec.write(List.of(Event.activityScheduled(1, "charge", bytes("[\"card\",12.5]"), OPTIONS),
					Event.activityScheduled(2, "ship", bytes("[]"), ActivityOptions.DEFAULT),
					Event.activityScheduled(3, "charge", bytes("[\"other\"]"), OPTIONS))));
		List<ActivityOptions> options = read.stream().map((e) -> ((ActivityScheduled) e).options()).toList();
		assertThat(options.get(0)).isEqualTo(OPTIONS).isSameAs(options.get(2));
		assertThat(options.get(1)).isEqualTo(ActivityOptions.DEFAULT);
	}

	@Test
	void ignoresFieldsItDoesNotKnowAndNulls() {
		byte[] row = bytes("[{\"type\":\"TIMER_FIRED\",\"seq\":4,\"later\":{\"x\":[1,{\"y\":2}]},\"name\":null},"
				+ "{\"type\":\"WORKFLOW_COMPLETED\",\"payload\":\"NDI=\",\"extra\":[]}]");
		List<Event> read = EventCodec.read(row);
		assertThat(read).usingRecursiveComparison().isEqualTo(readBound(row));
		assertThat(read.get(0)).isEqualTo(Event.timerFired(4));
		assertThat(read.get(1)).isInstanceOfSatisfying(WorkflowCompleted.class,
				(completed) -> assertThat(new String(completed.result(), StandardCharsets.UTF_8)).isEqualTo("42"));
	}

	@Test
	void aRowThatIsNotAnArrayOfEventsFails() {
		assertThatThrownBy(() -> EventCodec.read(bytes("{\"type\":\"TIMER_FIRED\"}")))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("not a JSON array");
		assertThatThrownBy(() -> EventCodec.read(bytes("[1]"))).isInstanceOf(IllegalStateException.class);
	}

}
