package dev.durable.workflow.internal.history;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.activity.ActivityOptions;

/**
 * One history event. Fields unused by a type are {@code null}; the row stores events as
 * JSON with nulls left out.
 *
 * @param type the event type
 * @param seq the command sequence number it refers to (activities, timers, side effects)
 * @param name activity type, version change id, workflow type
 * @param payload encoded input, result or value
 * @param failure a failure
 * @param fireAt timer fire time
 * @param version version marker value
 * @param options activity options
 * @param reason cancel or terminate reason
 * @param messageId the update id of update events
 * @param child the options of a child start (timeouts, task queue, retry policy)
 */
public record Event(EventType type, Long seq, String name, byte[] payload, FailureInfo failure, Instant fireAt,
		Integer version, ActivityOptions options, String reason, String messageId, ChildOptions child) {

	/** An event that is not a child start. */
	public Event(EventType type, Long seq, String name, byte[] payload, FailureInfo failure, Instant fireAt,
			Integer version, ActivityOptions options, String reason, String messageId) {
		this(type, seq, name, payload, failure, fireAt, version, options, reason, messageId, null);
	}

	public static Event of(EventType type, Long seq) {
		return new Event(type, seq, null, null, null, null, null, null, null, null);
	}

	public static Event workflowStarted(String workflowType, byte[] input) {
		return new Event(EventType.WORKFLOW_STARTED, null, workflowType, input, null, null, null, null, null, null);
	}

	public static Event activityScheduled(long seq, String activityType, byte[] args, ActivityOptions options) {
		return new Event(EventType.ACTIVITY_SCHEDULED, seq, activityType, args, null, null, null, options, null, null);
	}

	public static Event activityCompleted(long seq, byte[] result) {
		return new Event(EventType.ACTIVITY_COMPLETED, seq, null, result, null, null, null, null, null, null);
	}

	public static Event activityFailed(long seq, FailureInfo failure) {
		return new Event(EventType.ACTIVITY_FAILED, seq, null, null, failure, null, null, null, null, null);
	}

	public static Event timerStarted(long seq, Instant fireAt) {
		return new Event(EventType.TIMER_STARTED, seq, null, null, null, fireAt, null, null, null, null);
	}

	public static Event sideEffect(long seq, byte[] value) {
		return new Event(EventType.SIDE_EFFECT, seq, null, value, null, null, null, null, null, null);
	}

	/** A local activity's outcome: its encoded result, or its final failure. */
	public static Event localActivity(long seq, String activityType, byte[] result, FailureInfo failure) {
		return new Event(EventType.LOCAL_ACTIVITY, seq, activityType, result, failure, null, null, null, null, null);
	}

	public static Event versionMarker(String changeId, int version) {
		return new Event(EventType.VERSION_MARKER, null, changeId, null, null, null, version, null, null, null);
	}

	/**
	 * The workflow canceled an activity; the failure is the one it saw (with the attempts
	 * made).
	 */
	public static Event activityCancelRequested(long seq, FailureInfo failure) {
		return new Event(EventType.ACTIVITY_CANCEL_REQUESTED, seq, null, null, failure, null, null, null, null, null);
	}

	public static Event cancelRequested(String reason) {
		return new Event(EventType.CANCEL_REQUESTED, null, null, null, null, null, null, null, reason, null);
	}

	public static Event startChild(long seq, String workflowType, String workflowId, byte[] input, String policy,
			ChildOptions options) {
		return new Event(EventType.START_CHILD, seq, workflowType, input, null, null, null, null, policy, workflowId,
				options);
	}

	public static Event childStarted(long seq, String childRunId) {
		return new Event(EventType.CHILD_STARTED, seq, null, null, null, null, null, null, null, childRunId);
	}

	public static Event childStartFailed(long seq, FailureInfo failure) {
		return new Event(EventType.CHILD_START_FAILED, seq, null, null, failure, null, null, null, null, null);
	}

	public static Event childClosed(long seq, byte[] result, FailureInfo failure) {
		return new Event(EventType.CHILD_CLOSED, seq, null, result, failure, null, null, null, null, null);
	}

	/**
	 * A signal (name set) or cancel request (name null) for another workflow; runId may
	 * be null.
	 */
	public static Event external(long seq, String workflowId, String runId, String signalName, byte[] payload) {
		return new Event((signalName != null) ? EventType.SIGNAL_EXTERNAL : EventType.CANCEL_EXTERNAL, seq, signalName,
				payload, null, null, null, null, runId, workflowId);
	}

	/** The outcome of a signal or cancel to another workflow: delivered, or failed. */
	public static Event externalDelivered(long seq, FailureInfo failure) {
		return new Event(EventType.EXTERNAL_DELIVERED, seq, null, null, failure, null, null, null, null, null);
	}

	/**
	 * A memo or search attribute upsert (its patch as canonical JSON), or the start
	 * values.
	 */
	public static Event attributes(EventType type, byte[] json) {
		return new Event(type, null, null, json, null, null, null, null, null, null);
	}

	/** Workflows.setEvent: the key and the encoded value. */
	public static Event eventSet(String key, byte[] value) {
		return new Event(EventType.EVENT_SET, null, key, value, null, null, null, null, null, null);
	}

	/** A value written to a stream at an offset. */
	public static Event streamWrite(String key, long offset, byte[] value) {
		return new Event(EventType.STREAM_WRITE, offset, key, value, null, null, null, null, null, null);
	}

	/** The end of a stream; the offset is the one after its last value. */
	public static Event streamClosed(String key, long offset) {
		return new Event(EventType.STREAM_CLOSED, offset, key, null, null, null, null, null, null, null);
	}

	public static Event continuedAsNew(byte[] input) {
		return new Event(EventType.CONTINUED_AS_NEW, null, null, input, null, null, null, null, null, null);
	}

	public static Event completed(byte[] result) {
		return new Event(EventType.WORKFLOW_COMPLETED, null, null, result, null, null, null, null, null, null);
	}

	public static Event failed(EventType type, FailureInfo failure) {
		return new Event(type, null, null, null, failure, null, null, null, null, null);
	}

	public static Event signalReceived(String name, byte[] payload) {
		return new Event(EventType.SIGNAL_RECEIVED, null, name, payload, null, null, null, null, null, null);
	}

	public static Event updateAccepted(String updateId, String name, byte[] payload) {
		return new Event(EventType.UPDATE_ACCEPTED, null, name, payload, null, null, null, null, null, updateId);
	}

	public static Event updateCompleted(String updateId, byte[] result, FailureInfo failure) {
		return new Event(EventType.UPDATE_COMPLETED, null, null, result, failure, null, null, null, null, updateId);
	}

	/** This event with another type. */
	public Event withType(EventType other) {
		return new Event(other, this.seq, this.name, this.payload, this.failure, this.fireAt, this.version,
				this.options, this.reason, this.messageId, this.child);
	}

	/** Whether a command issued on replay is the same as this recorded one. */
	public boolean sameCommand(Event other) {
		return this.type == other.type && Objects.equals(this.seq, other.seq) && Objects.equals(this.name, other.name)
				&& Objects.equals(this.version, other.version) && Objects.equals(this.messageId, other.messageId);
	}

	/** A short description for non-determinism messages. */
	public String describe() {
		StringBuilder sb = new StringBuilder(this.type.name());
		if (this.seq != null) {
			sb.append('#').append(this.seq);
		}
		if (this.name != null) {
			sb.append('(').append(this.name).append(')');
		}
		if (this.messageId != null) {
			sb.append('[').append(this.messageId).append(']');
		}
		return sb.toString();
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof Event e && sameCommand(e) && Arrays.equals(this.payload, e.payload)
				&& Objects.equals(this.fireAt, e.fireAt) && Objects.equals(this.reason, e.reason);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.type, this.seq, this.name, this.version);
	}

}
