package dev.durable.workflow.internal.history;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.ParentClosePolicy;
import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.failure.TimeoutType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The token reader of history rows reads every field of every kind of event exactly as
 * the generic record binding it replaced does (the binding stays as the reference).
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

	private static List<Event> everyKind() {
		FailureInfo cause = FailureInfo.application("Inner", "inner \"quoted\"\nline", true, "at x\n\tat y",
				new byte[] { 0, -1, 7 }, null);
		FailureInfo failure = new FailureInfo("ACTIVITY", "Outer", "outer", false, null, null, cause, null, "charge",
				4L, 3);
		ChildOptions child = new ChildOptions("child-1", ParentClosePolicy.ABANDON)
			.withExecutionTimeout(Duration.ofHours(2))
			.withTaskQueue("children");
		return List.of(Event.workflowStarted("order", bytes("{\"item\":\"tea\",\"n\":2}")),
				Event.activityScheduled(1, "charge", bytes("[\"card\",12.5]"), OPTIONS),
				Event.activityScheduled(2, "ship", bytes("[]"), ActivityOptions.DEFAULT),
				Event.activityScheduled(3, "charge", bytes("[\"other\"]"), OPTIONS),
				Event.activityCompleted(1, bytes("\"ok \\u00e9 ✓\"")), Event.activityCompleted(2, null),
				Event.activityFailed(3, failure),
				Event.timerStarted(4, Instant.parse("2026-12-03T17:00:00.123456789Z")),
				Event.of(EventType.TIMER_FIRED, 4L), Event.sideEffect(5, new byte[0]), Event.versionMarker("fix-1", 2),
				Event.cancelRequested("operator said so"),
				Event.startChild(6, "child-type", "child-1", bytes("{}"), "ALLOW_DUPLICATE", child),
				Event.childStarted(6, "7b0c5f7e-2f4b-4b8e-9d0a-1a2b3c4d5e6f"),
				Event.childStartFailed(7, FailureInfo.canceled("no")), Event.childClosed(6, bytes("1"), null),
				Event.external(8, "other-wf", null, "poke", bytes("{\"a\":[1,2,{\"b\":null}]}")),
				Event.external(9, "other-wf", "run-9", null, null), Event.externalDelivered(8, null),
				Event.attributes(EventType.WORKFLOW_ATTRIBUTES, bytes("{\"k\":\"v\"}")),
				Event.signalReceived("addNote", bytes("\"leave it\"")),
				Event.updateAccepted("u-1", "approve", bytes("{\"by\":\"ann\"}")),
				Event.updateCompleted("u-1", null, FailureInfo.timeout(TimeoutType.START_TO_CLOSE, "late", cause)),
				Event.continuedAsNew(bytes("{\"page\":2}")), Event.completed(bytes("42")),
				Event.failed(EventType.WORKFLOW_FAILED, FailureInfo.terminated("stop")));
	}

	@Test
	void readsEveryEventKindAsTheRecordBindingDoes() {
		List<Event> written = everyKind();
		byte[] row = EventCodec.write(written);
		List<Event> read = EventCodec.read(row);
		List<Event> bound = EventCodec.readBound(row);
		assertThat(read).hasSize(written.size());
		for (int i = 0; i < read.size(); i++) {
			// component by component: Event.equals compares only what replay matches
			// commands by
			assertThat(read.get(i)).as("event %d (%s)", i, written.get(i).type())
				.usingRecursiveComparison()
				.isEqualTo(bound.get(i))
				.isEqualTo(written.get(i));
		}
	}

	@Test
	void activityOptionsThatRepeatAreReadOnceAndShared() {
		List<Event> read = EventCodec.read(EventCodec.write(everyKind()));
		assertThat(read.get(1).options()).isEqualTo(OPTIONS).isSameAs(read.get(3).options());
		assertThat(read.get(2).options()).isEqualTo(ActivityOptions.DEFAULT);
	}

	@Test
	void ignoresFieldsItDoesNotKnowAndNulls() {
		byte[] row = bytes("[{\"type\":\"TIMER_FIRED\",\"seq\":4,\"later\":{\"x\":[1,{\"y\":2}]},\"name\":null},"
				+ "{\"type\":\"WORKFLOW_COMPLETED\",\"payload\":\"NDI=\",\"extra\":[]}]");
		List<Event> read = EventCodec.read(row);
		assertThat(read).usingRecursiveComparison().isEqualTo(EventCodec.readBound(row));
		assertThat(new String(read.get(1).payload(), StandardCharsets.UTF_8)).isEqualTo("42");
	}

	@Test
	void aRowThatIsNotAnArrayOfEventsFails() {
		assertThatThrownBy(() -> EventCodec.read(bytes("{\"type\":\"TIMER_FIRED\"}")))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("not a JSON array");
		assertThatThrownBy(() -> EventCodec.read(bytes("[1]"))).isInstanceOf(IllegalStateException.class);
	}

}
