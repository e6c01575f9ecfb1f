package dev.durable.workflow.internal.history;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.activity.ActivityOptions;

/**
 * One history event: one record per {@link EventType}, carrying only the fields that kind
 * has. Rows store events in their flat form ({@link StoredEvent}, written and read by
 * {@link EventCodec}).
 * <p>
 * Equality is what replay matches by: encoded values compare by content, and failures,
 * activity options and child options are not compared (a recorded failure is the engine's
 * description of what happened, options may change between deployments).
 */
public sealed interface Event {

	EventType type();

	/** Whether a command issued on replay is the same as this recorded one. */
	default boolean sameCommand(Event other) {
		return StoredEvent.of(this).sameCommand(StoredEvent.of(other));
	}

	/** A short description for non-determinism messages. */
	default String describe() {
		return StoredEvent.of(this).describe();
	}

	/**
	 * The run started (first task); {@code due} is when its first task was due, if later.
	 */
	record WorkflowStarted(String workflowType, byte[] input, Instant due, String seed) implements Event {

		public EventType type() {
			return EventType.WORKFLOW_STARTED;
		}

		/** This start due at another time (a start delay, retry or cron backoff). */
		public WorkflowStarted dueAt(Instant when) {
			return new WorkflowStarted(this.workflowType, this.input, when, this.seed);
		}

		/** This start with the seed of the run's random values (a reset's new run). */
		public WorkflowStarted withSeed(String value) {
			return new WorkflowStarted(this.workflowType, this.input, this.due, value);
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof WorkflowStarted e && Objects.equals(this.workflowType, e.workflowType)
					&& Arrays.equals(this.input, e.input) && Objects.equals(this.due, e.due)
					&& Objects.equals(this.seed, e.seed);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.workflowType, this.seed);
		}

	}

	/** The memo and search attributes the run started with (the engine's own JSON). */
	record WorkflowAttributes(byte[] json) implements Event {

		public EventType type() {
			return EventType.WORKFLOW_ATTRIBUTES;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof WorkflowAttributes e && Arrays.equals(this.json, e.json);
		}

		@Override
		public int hashCode() {
			return Arrays.hashCode(this.json);
		}

	}

	record ActivityScheduled(long seq, String activityType, byte[] args, ActivityOptions options) implements Event {

		public EventType type() {
			return EventType.ACTIVITY_SCHEDULED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof ActivityScheduled e && this.seq == e.seq
					&& Objects.equals(this.activityType, e.activityType) && Arrays.equals(this.args, e.args);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.seq, this.activityType);
		}

	}

	record ActivityCompleted(long seq, byte[] result) implements Event {

		public EventType type() {
			return EventType.ACTIVITY_COMPLETED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof ActivityCompleted e && this.seq == e.seq && Arrays.equals(this.result, e.result);
		}

		@Override
		public int hashCode() {
			return Long.hashCode(this.seq);
		}

	}

	record ActivityFailed(long seq, FailureInfo failure) implements Event {

		public EventType type() {
			return EventType.ACTIVITY_FAILED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof ActivityFailed e && this.seq == e.seq;
		}

		@Override
		public int hashCode() {
			return Long.hashCode(this.seq);
		}

	}

	/**
	 * The workflow canceled an activity; the failure is the one it saw (with the attempts
	 * made), {@code null} when the command is issued again on replay.
	 */
	record ActivityCancelRequested(long seq, FailureInfo failure) implements Event {

		public EventType type() {
			return EventType.ACTIVITY_CANCEL_REQUESTED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof ActivityCancelRequested e && this.seq == e.seq;
		}

		@Override
		public int hashCode() {
			return Long.hashCode(this.seq);
		}

	}

	/** A local activity's outcome: its encoded result, or its final failure. */
	record LocalActivity(long seq, String activityType, byte[] result, FailureInfo failure) implements Event {

		public EventType type() {
			return EventType.LOCAL_ACTIVITY;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof LocalActivity e && this.seq == e.seq
					&& Objects.equals(this.activityType, e.activityType) && Arrays.equals(this.result, e.result);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.seq, this.activityType);
		}

	}

	record TimerStarted(long seq, Instant fireAt) implements Event {

		public EventType type() {
			return EventType.TIMER_STARTED;
		}

	}

	record TimerFired(long seq) implements Event {

		public EventType type() {
			return EventType.TIMER_FIRED;
		}

	}

	record TimerCanceled(long seq) implements Event {

		public EventType type() {
			return EventType.TIMER_CANCELED;
		}

	}

	record SideEffect(long seq, byte[] value) implements Event {

		public EventType type() {
			return EventType.SIDE_EFFECT;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof SideEffect e && this.seq == e.seq && Arrays.equals(this.value, e.value);
		}

		@Override
		public int hashCode() {
			return Long.hashCode(this.seq);
		}

	}

	record VersionMarker(String changeId, int version) implements Event {

		public EventType type() {
			return EventType.VERSION_MARKER;
		}

	}

	record CancelRequested(String reason) implements Event {

		public EventType type() {
			return EventType.CANCEL_REQUESTED;
		}

	}

	record SignalReceived(String name, byte[] payload) implements Event {

		public EventType type() {
			return EventType.SIGNAL_RECEIVED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof SignalReceived e && Objects.equals(this.name, e.name)
					&& Arrays.equals(this.payload, e.payload);
		}

		@Override
		public int hashCode() {
			return Objects.hashCode(this.name);
		}

	}

	record UpdateAccepted(String updateId, String name, byte[] payload) implements Event {

		public EventType type() {
			return EventType.UPDATE_ACCEPTED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof UpdateAccepted e && Objects.equals(this.updateId, e.updateId)
					&& Objects.equals(this.name, e.name) && Arrays.equals(this.payload, e.payload);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.updateId, this.name);
		}

	}

	/** An update's outcome: its encoded result, or its failure. */
	record UpdateCompleted(String updateId, byte[] result, FailureInfo failure) implements Event {

		public EventType type() {
			return EventType.UPDATE_COMPLETED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof UpdateCompleted e && Objects.equals(this.updateId, e.updateId)
					&& Arrays.equals(this.result, e.result);
		}

		@Override
		public int hashCode() {
			return Objects.hashCode(this.updateId);
		}

	}

	/** A child start; {@code policy} is its id reuse policy. */
	record StartChild(long seq, String workflowType, String workflowId, byte[] input, String policy,
			ChildOptions options) implements Event {

		public EventType type() {
			return EventType.START_CHILD;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof StartChild e && this.seq == e.seq && Objects.equals(this.workflowType, e.workflowType)
					&& Objects.equals(this.workflowId, e.workflowId) && Arrays.equals(this.input, e.input)
					&& Objects.equals(this.policy, e.policy);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.seq, this.workflowType, this.workflowId);
		}

	}

	record ChildStarted(long seq, String childRunId) implements Event {

		public EventType type() {
			return EventType.CHILD_STARTED;
		}

	}

	record ChildStartFailed(long seq, FailureInfo failure) implements Event {

		public EventType type() {
			return EventType.CHILD_START_FAILED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof ChildStartFailed e && this.seq == e.seq;
		}

		@Override
		public int hashCode() {
			return Long.hashCode(this.seq);
		}

	}

	/** A child's close: its encoded result, or its failure. */
	record ChildClosed(long seq, byte[] result, FailureInfo failure) implements Event {

		public EventType type() {
			return EventType.CHILD_CLOSED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof ChildClosed e && this.seq == e.seq && Arrays.equals(this.result, e.result);
		}

		@Override
		public int hashCode() {
			return Long.hashCode(this.seq);
		}

	}

	/** A signal to another workflow; {@code runId} may be {@code null}. */
	record SignalExternal(long seq, String workflowId, String runId, String signalName,
			byte[] payload) implements Event {

		public EventType type() {
			return EventType.SIGNAL_EXTERNAL;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof SignalExternal e && this.seq == e.seq && Objects.equals(this.workflowId, e.workflowId)
					&& Objects.equals(this.runId, e.runId) && Objects.equals(this.signalName, e.signalName)
					&& Arrays.equals(this.payload, e.payload);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.seq, this.workflowId, this.signalName);
		}

	}

	/** A cancel request for another workflow; {@code runId} may be {@code null}. */
	record CancelExternal(long seq, String workflowId, String runId) implements Event {

		public EventType type() {
			return EventType.CANCEL_EXTERNAL;
		}

	}

	/** The outcome of a signal or cancel to another workflow: delivered, or failed. */
	record ExternalDelivered(long seq, FailureInfo failure) implements Event {

		public EventType type() {
			return EventType.EXTERNAL_DELIVERED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof ExternalDelivered e && this.seq == e.seq;
		}

		@Override
		public int hashCode() {
			return Long.hashCode(this.seq);
		}

	}

	/**
	 * Workflows.upsertSearchAttributes: the patch as canonical JSON (null removes a key).
	 */
	record UpsertSearchAttributes(byte[] patch) implements Event {

		public EventType type() {
			return EventType.UPSERT_SEARCH_ATTRIBUTES;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof UpsertSearchAttributes e && Arrays.equals(this.patch, e.patch);
		}

		@Override
		public int hashCode() {
			return Arrays.hashCode(this.patch);
		}

	}

	/** Workflows.upsertMemo: the patch as canonical JSON (null removes a key). */
	record UpsertMemo(byte[] patch) implements Event {

		public EventType type() {
			return EventType.UPSERT_MEMO;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof UpsertMemo e && Arrays.equals(this.patch, e.patch);
		}

		@Override
		public int hashCode() {
			return Arrays.hashCode(this.patch);
		}

	}

	/** Workflows.setEvent: the key and the encoded value. */
	record EventSet(String key, byte[] value) implements Event {

		public EventType type() {
			return EventType.EVENT_SET;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof EventSet e && Objects.equals(this.key, e.key) && Arrays.equals(this.value, e.value);
		}

		@Override
		public int hashCode() {
			return Objects.hashCode(this.key);
		}

	}

	/** A value written to a stream at an offset. */
	record StreamWrite(String key, long offset, byte[] value) implements Event {

		public EventType type() {
			return EventType.STREAM_WRITE;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof StreamWrite e && Objects.equals(this.key, e.key) && this.offset == e.offset
					&& Arrays.equals(this.value, e.value);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.key, this.offset);
		}

	}

	/** The end of a stream; the offset is the one after its last value. */
	record StreamClosed(String key, long offset) implements Event {

		public EventType type() {
			return EventType.STREAM_CLOSED;
		}

	}

	record WorkflowCompleted(byte[] result) implements Event {

		public EventType type() {
			return EventType.WORKFLOW_COMPLETED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof WorkflowCompleted e && Arrays.equals(this.result, e.result);
		}

		@Override
		public int hashCode() {
			return 0;
		}

	}

	record WorkflowFailed(FailureInfo failure) implements Event {

		public EventType type() {
			return EventType.WORKFLOW_FAILED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof WorkflowFailed;
		}

		@Override
		public int hashCode() {
			return 0;
		}

	}

	record WorkflowCanceled(FailureInfo failure) implements Event {

		public EventType type() {
			return EventType.WORKFLOW_CANCELED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof WorkflowCanceled;
		}

		@Override
		public int hashCode() {
			return 0;
		}

	}

	record ContinuedAsNew(byte[] input) implements Event {

		public EventType type() {
			return EventType.CONTINUED_AS_NEW;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof ContinuedAsNew e && Arrays.equals(this.input, e.input);
		}

		@Override
		public int hashCode() {
			return 0;
		}

	}

	/** Written by terminate, outside any workflow task. */
	record WorkflowTerminated(FailureInfo failure, String reason) implements Event {

		public EventType type() {
			return EventType.WORKFLOW_TERMINATED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof WorkflowTerminated e && Objects.equals(this.reason, e.reason);
		}

		@Override
		public int hashCode() {
			return 0;
		}

	}

	/** Written when the run or execution timeout passed, outside any workflow task. */
	record WorkflowTimedOut(FailureInfo failure, String reason) implements Event {

		public EventType type() {
			return EventType.WORKFLOW_TIMED_OUT;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof WorkflowTimedOut e && Objects.equals(this.reason, e.reason);
		}

		@Override
		public int hashCode() {
			return 0;
		}

	}

	/**
	 * The activity was paused: no attempt starts until it is unpaused or reset.
	 * {@code by} is {@link #BY_RETRY_POLICY} when its retry policy paused it after its
	 * attempts were exhausted, else {@code null} (an operator).
	 */
	record ActivityPaused(long seq, String reason, String by) implements Event {

		/** Who paused an activity whose attempts were exhausted. */
		public static final String BY_RETRY_POLICY = "retryPolicy";

		public EventType type() {
			return EventType.ACTIVITY_PAUSED;
		}

	}

	/** The activity was unpaused. */
	record ActivityUnpaused(long seq) implements Event {

		public EventType type() {
			return EventType.ACTIVITY_UNPAUSED;
		}

	}

	/**
	 * The activity's attempts were reset: the next one is attempt 1, at once; its
	 * heartbeat details kept or dropped.
	 */
	record ActivityReset(long seq, boolean keepHeartbeatDetails) implements Event {

		/** The flat form's name for {@link #keepHeartbeatDetails()}. */
		static final String KEEP = "keepHeartbeatDetails";

		/** The flat form's name when the details are dropped. */
		static final String DROP = "dropHeartbeatDetails";

		public EventType type() {
			return EventType.ACTIVITY_RESET;
		}

	}

	/** The activity's options for the attempts to come. */
	record ActivityOptionsUpdated(long seq, ActivityOptions options) implements Event {

		public EventType type() {
			return EventType.ACTIVITY_OPTIONS_UPDATED;
		}

	}

	/**
	 * Workflows.awaitEvent began a wait (a command: the commit registers the wait).
	 *
	 * @param seq the wait's sequence number in the run
	 * @param topic the topic
	 * @param match the fields the event's payload must have, as a JSON object (engine
	 * JSON, compared on replay)
	 * @param afterPosition the position after which events count when the code asked for
	 * one, else {@code null} (the events dispatched after the wait began)
	 */
	record TopicWaitStarted(long seq, String topic, String match, Long afterPosition) implements Event {

		public EventType type() {
			return EventType.TOPIC_WAIT_STARTED;
		}

	}

	/**
	 * A wait for an event ended without one (its timeout, a cancellation): the commit
	 * removes the registration.
	 */
	record TopicWaitEnded(long seq) implements Event {

		public EventType type() {
			return EventType.TOPIC_WAIT_ENDED;
		}

	}

	/**
	 * An event a wait was waiting for.
	 *
	 * @param seq the wait's sequence number
	 * @param topic the topic
	 * @param eventId the event's id
	 * @param position its position on the topic
	 * @param payload its payload (JSON, through the payload converter's encryption if
	 * any)
	 * @param publishedAt when it was published
	 */
	record TopicEventReceived(long seq, String topic, String eventId, long position, byte[] payload,
			Instant publishedAt) implements Event {

		public EventType type() {
			return EventType.TOPIC_EVENT_RECEIVED;
		}

		@Override
		public boolean equals(Object o) {
			return o instanceof TopicEventReceived e && this.seq == e.seq && Objects.equals(this.eventId, e.eventId)
					&& this.position == e.position && Arrays.equals(this.payload, e.payload);
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.seq, this.eventId, this.position);
		}

	}

	static WorkflowStarted workflowStarted(String workflowType, byte[] input) {
		return new WorkflowStarted(workflowType, input, null, null);
	}

	static ActivityScheduled activityScheduled(long seq, String activityType, byte[] args, ActivityOptions options) {
		return new ActivityScheduled(seq, activityType, args, options);
	}

	static ActivityCompleted activityCompleted(long seq, byte[] result) {
		return new ActivityCompleted(seq, result);
	}

	static ActivityFailed activityFailed(long seq, FailureInfo failure) {
		return new ActivityFailed(seq, failure);
	}

	static TimerStarted timerStarted(long seq, Instant fireAt) {
		return new TimerStarted(seq, fireAt);
	}

	static TimerFired timerFired(long seq) {
		return new TimerFired(seq);
	}

	static TimerCanceled timerCanceled(long seq) {
		return new TimerCanceled(seq);
	}

	static SideEffect sideEffect(long seq, byte[] value) {
		return new SideEffect(seq, value);
	}

	static LocalActivity localActivity(long seq, String activityType, byte[] result, FailureInfo failure) {
		return new LocalActivity(seq, activityType, result, failure);
	}

	static VersionMarker versionMarker(String changeId, int version) {
		return new VersionMarker(changeId, version);
	}

	static ActivityCancelRequested activityCancelRequested(long seq, FailureInfo failure) {
		return new ActivityCancelRequested(seq, failure);
	}

	static CancelRequested cancelRequested(String reason) {
		return new CancelRequested(reason);
	}

	static StartChild startChild(long seq, String workflowType, String workflowId, byte[] input, String policy,
			ChildOptions options) {
		return new StartChild(seq, workflowType, workflowId, input, policy, options);
	}

	static ChildStarted childStarted(long seq, String childRunId) {
		return new ChildStarted(seq, childRunId);
	}

	static ChildStartFailed childStartFailed(long seq, FailureInfo failure) {
		return new ChildStartFailed(seq, failure);
	}

	static ChildClosed childClosed(long seq, byte[] result, FailureInfo failure) {
		return new ChildClosed(seq, result, failure);
	}

	/**
	 * A signal (name set) or cancel request (name null) for another workflow; runId may
	 * be null.
	 */
	static Event external(long seq, String workflowId, String runId, String signalName, byte[] payload) {
		return (signalName != null) ? new SignalExternal(seq, workflowId, runId, signalName, payload)
				: new CancelExternal(seq, workflowId, runId);
	}

	static ExternalDelivered externalDelivered(long seq, FailureInfo failure) {
		return new ExternalDelivered(seq, failure);
	}

	/**
	 * A memo or search attribute upsert (its patch as canonical JSON), or the start
	 * values.
	 */
	static Event attributes(EventType type, byte[] json) {
		return switch (type) {
			case WORKFLOW_ATTRIBUTES -> new WorkflowAttributes(json);
			case UPSERT_MEMO -> new UpsertMemo(json);
			case UPSERT_SEARCH_ATTRIBUTES -> new UpsertSearchAttributes(json);
			default -> throw new IllegalArgumentException(type + " is not an attributes event");
		};
	}

	static EventSet eventSet(String key, byte[] value) {
		return new EventSet(key, value);
	}

	static StreamWrite streamWrite(String key, long offset, byte[] value) {
		return new StreamWrite(key, offset, value);
	}

	static StreamClosed streamClosed(String key, long offset) {
		return new StreamClosed(key, offset);
	}

	static ContinuedAsNew continuedAsNew(byte[] input) {
		return new ContinuedAsNew(input);
	}

	static WorkflowCompleted completed(byte[] result) {
		return new WorkflowCompleted(result);
	}

	static WorkflowFailed failed(FailureInfo failure) {
		return new WorkflowFailed(failure);
	}

	static WorkflowCanceled canceled(FailureInfo failure) {
		return new WorkflowCanceled(failure);
	}

	/**
	 * A close written outside any workflow task: WORKFLOW_TERMINATED or
	 * WORKFLOW_TIMED_OUT.
	 */
	static Event closedOutsideTasks(EventType type, FailureInfo failure, String reason) {
		return switch (type) {
			case WORKFLOW_TERMINATED -> new WorkflowTerminated(failure, reason);
			case WORKFLOW_TIMED_OUT -> new WorkflowTimedOut(failure, reason);
			default -> throw new IllegalArgumentException(type + " is not written outside workflow tasks");
		};
	}

	static ActivityPaused activityPaused(long seq, String reason, String by) {
		return new ActivityPaused(seq, reason, by);
	}

	static ActivityUnpaused activityUnpaused(long seq) {
		return new ActivityUnpaused(seq);
	}

	static ActivityReset activityReset(long seq, boolean keepHeartbeatDetails) {
		return new ActivityReset(seq, keepHeartbeatDetails);
	}

	static ActivityOptionsUpdated activityOptionsUpdated(long seq, ActivityOptions options) {
		return new ActivityOptionsUpdated(seq, options);
	}

	static SignalReceived signalReceived(String name, byte[] payload) {
		return new SignalReceived(name, payload);
	}

	static UpdateAccepted updateAccepted(String updateId, String name, byte[] payload) {
		return new UpdateAccepted(updateId, name, payload);
	}

	static UpdateCompleted updateCompleted(String updateId, byte[] result, FailureInfo failure) {
		return new UpdateCompleted(updateId, result, failure);
	}

}
