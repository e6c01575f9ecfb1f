package dev.durable.workflow.internal.history;

import java.time.Instant;
import java.util.Objects;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.history.Event.ActivityCancelRequested;
import dev.durable.workflow.internal.history.Event.ActivityCompleted;
import dev.durable.workflow.internal.history.Event.ActivityFailed;
import dev.durable.workflow.internal.history.Event.ActivityOptionsUpdated;
import dev.durable.workflow.internal.history.Event.ActivityPaused;
import dev.durable.workflow.internal.history.Event.ActivityReset;
import dev.durable.workflow.internal.history.Event.ActivityScheduled;
import dev.durable.workflow.internal.history.Event.ActivityUnpaused;
import dev.durable.workflow.internal.history.Event.CancelExternal;
import dev.durable.workflow.internal.history.Event.CancelRequested;
import dev.durable.workflow.internal.history.Event.ChildClosed;
import dev.durable.workflow.internal.history.Event.ChildStartFailed;
import dev.durable.workflow.internal.history.Event.ChildStarted;
import dev.durable.workflow.internal.history.Event.ContinuedAsNew;
import dev.durable.workflow.internal.history.Event.EventSet;
import dev.durable.workflow.internal.history.Event.ExternalDelivered;
import dev.durable.workflow.internal.history.Event.LocalActivity;
import dev.durable.workflow.internal.history.Event.SideEffect;
import dev.durable.workflow.internal.history.Event.SignalExternal;
import dev.durable.workflow.internal.history.Event.SignalReceived;
import dev.durable.workflow.internal.history.Event.StartChild;
import dev.durable.workflow.internal.history.Event.StreamClosed;
import dev.durable.workflow.internal.history.Event.StreamWrite;
import dev.durable.workflow.internal.history.Event.TimerCanceled;
import dev.durable.workflow.internal.history.Event.TimerFired;
import dev.durable.workflow.internal.history.Event.TimerStarted;
import dev.durable.workflow.internal.history.Event.TopicEventReceived;
import dev.durable.workflow.internal.history.Event.TopicWaitEnded;
import dev.durable.workflow.internal.history.Event.TopicWaitStarted;
import dev.durable.workflow.internal.history.Event.UpdateAccepted;
import dev.durable.workflow.internal.history.Event.UpdateCompleted;
import dev.durable.workflow.internal.history.Event.UpsertMemo;
import dev.durable.workflow.internal.history.Event.UpsertSearchAttributes;
import dev.durable.workflow.internal.history.Event.VersionMarker;
import dev.durable.workflow.internal.history.Event.WorkflowAttributes;
import dev.durable.workflow.internal.history.Event.WorkflowCanceled;
import dev.durable.workflow.internal.history.Event.WorkflowCompleted;
import dev.durable.workflow.internal.history.Event.WorkflowFailed;
import dev.durable.workflow.internal.history.Event.WorkflowStarted;
import dev.durable.workflow.internal.history.Event.WorkflowTerminated;
import dev.durable.workflow.internal.history.Event.WorkflowTimedOut;

/**
 * The flat form of one event, as a history row stores it (a JSON object with nulls left
 * out) and as the public history exports it: the same eleven fields for every kind, the
 * ones a kind does not have {@code null}. The field names and what each kind keeps in
 * them are the stored format; {@link #of} and {@link #toEvent} are its only mapping.
 *
 * @param type the event type
 * @param seq the command sequence number it refers to (activities, timers, side effects),
 * or a stream offset
 * @param name activity type, version change id, workflow type, signal, update, event or
 * stream name
 * @param payload encoded input, result or value
 * @param failure a failure
 * @param fireAt timer fire time, when a run's first task was due, when a topic event was
 * published
 * @param version version marker value
 * @param options activity options
 * @param reason cancel or terminate reason, a child's id reuse policy, an external
 * target's run id, a topic event's position (or the position a wait counts from)
 * @param messageId the update id of update events, a child's or external target's
 * workflow id, a started child's run id, a reset run's seed, a topic event's id, a topic
 * wait's match
 * @param child the options of a child start (timeouts, task queue, retry policy)
 */
public record StoredEvent(EventType type, Long seq, String name, byte[] payload, FailureInfo failure, Instant fireAt,
		Integer version, ActivityOptions options, String reason, String messageId, ChildOptions child) {

	private static StoredEvent of(EventType type, Long seq, String name, byte[] payload, FailureInfo failure) {
		return new StoredEvent(type, seq, name, payload, failure, null, null, null, null, null, null);
	}

	/** The flat form of an event. */
	public static StoredEvent of(Event event) {
		EventType type = event.type();
		return switch (event) {
			case WorkflowStarted e -> new StoredEvent(type, null, e.workflowType(), e.input(), null, e.due(), null,
					null, null, e.seed(), null);
			case WorkflowAttributes e -> of(type, null, null, e.json(), null);
			case ActivityScheduled e -> new StoredEvent(type, e.seq(), e.activityType(), e.args(), null, null, null,
					e.options(), null, null, null);
			case ActivityCompleted e -> of(type, e.seq(), null, e.result(), null);
			case ActivityFailed e -> of(type, e.seq(), null, null, e.failure());
			case ActivityCancelRequested e -> of(type, e.seq(), null, null, e.failure());
			case LocalActivity e -> of(type, e.seq(), e.activityType(), e.result(), e.failure());
			case TimerStarted e ->
				new StoredEvent(type, e.seq(), null, null, null, e.fireAt(), null, null, null, null, null);
			case TimerFired e -> of(type, e.seq(), null, null, null);
			case TimerCanceled e -> of(type, e.seq(), null, null, null);
			case SideEffect e -> of(type, e.seq(), null, e.value(), null);
			case VersionMarker e ->
				new StoredEvent(type, null, e.changeId(), null, null, null, e.version(), null, null, null, null);
			case CancelRequested e ->
				new StoredEvent(type, null, null, null, null, null, null, null, e.reason(), null, null);
			case SignalReceived e -> of(type, null, e.name(), e.payload(), null);
			case UpdateAccepted e ->
				new StoredEvent(type, null, e.name(), e.payload(), null, null, null, null, null, e.updateId(), null);
			case UpdateCompleted e ->
				new StoredEvent(type, null, null, e.result(), e.failure(), null, null, null, null, e.updateId(), null);
			case StartChild e -> new StoredEvent(type, e.seq(), e.workflowType(), e.input(), null, null, null, null,
					e.policy(), e.workflowId(), e.options());
			case ChildStarted e ->
				new StoredEvent(type, e.seq(), null, null, null, null, null, null, null, e.childRunId(), null);
			case ChildStartFailed e -> of(type, e.seq(), null, null, e.failure());
			case ChildClosed e -> of(type, e.seq(), null, e.result(), e.failure());
			case SignalExternal e -> new StoredEvent(type, e.seq(), e.signalName(), e.payload(), null, null, null, null,
					e.runId(), e.workflowId(), null);
			case CancelExternal e ->
				new StoredEvent(type, e.seq(), null, null, null, null, null, null, e.runId(), e.workflowId(), null);
			case ExternalDelivered e -> of(type, e.seq(), null, null, e.failure());
			case UpsertSearchAttributes e -> of(type, null, null, e.patch(), null);
			case UpsertMemo e -> of(type, null, null, e.patch(), null);
			case EventSet e -> of(type, null, e.key(), e.value(), null);
			case StreamWrite e -> of(type, e.offset(), e.key(), e.value(), null);
			case StreamClosed e -> of(type, e.offset(), e.key(), null, null);
			case WorkflowCompleted e -> of(type, null, null, e.result(), null);
			case WorkflowFailed e -> of(type, null, null, null, e.failure());
			case WorkflowCanceled e -> of(type, null, null, null, e.failure());
			case ContinuedAsNew e -> of(type, null, null, e.input(), null);
			case WorkflowTerminated e ->
				new StoredEvent(type, null, null, null, e.failure(), null, null, null, e.reason(), null, null);
			case ActivityPaused e ->
				new StoredEvent(type, e.seq(), e.by(), null, null, null, null, null, e.reason(), null, null);
			case ActivityUnpaused e -> of(type, e.seq(), null, null, null);
			case ActivityReset e ->
				of(type, e.seq(), e.keepHeartbeatDetails() ? ActivityReset.KEEP : ActivityReset.DROP, null, null);
			case ActivityOptionsUpdated e ->
				new StoredEvent(type, e.seq(), null, null, null, null, null, e.options(), null, null, null);
			case WorkflowTimedOut e ->
				new StoredEvent(type, null, null, null, e.failure(), null, null, null, e.reason(), null, null);
			case TopicWaitStarted e -> new StoredEvent(type, e.seq(), e.topic(), null, null, null, null, null,
					(e.afterPosition() != null) ? e.afterPosition().toString() : null, e.match(), null);
			case TopicWaitEnded e -> of(type, e.seq(), null, null, null);
			case TopicEventReceived e -> new StoredEvent(type, e.seq(), e.topic(), e.payload(), null, e.publishedAt(),
					null, null, Long.toString(e.position()), e.eventId(), null);
		};
	}

	/**
	 * The event this flat form stores; fields its kind does not have are ignored, as the
	 * reader ignores fields it does not know.
	 */
	public Event toEvent() {
		if (this.type == null) {
			throw new IllegalStateException("A stored event has no type");
		}
		return switch (this.type) {
			case WORKFLOW_STARTED -> new WorkflowStarted(this.name, this.payload, this.fireAt, this.messageId);
			case WORKFLOW_ATTRIBUTES -> new WorkflowAttributes(this.payload);
			case ACTIVITY_SCHEDULED -> new ActivityScheduled(requiredSeq(), this.name, this.payload, this.options);
			case ACTIVITY_COMPLETED -> new ActivityCompleted(requiredSeq(), this.payload);
			case ACTIVITY_FAILED -> new ActivityFailed(requiredSeq(), this.failure);
			case ACTIVITY_CANCEL_REQUESTED -> new ActivityCancelRequested(requiredSeq(), this.failure);
			case LOCAL_ACTIVITY -> new LocalActivity(requiredSeq(), this.name, this.payload, this.failure);
			case TIMER_STARTED -> new TimerStarted(requiredSeq(), this.fireAt);
			case TIMER_FIRED -> new TimerFired(requiredSeq());
			case TIMER_CANCELED -> new TimerCanceled(requiredSeq());
			case SIDE_EFFECT -> new SideEffect(requiredSeq(), this.payload);
			case VERSION_MARKER -> new VersionMarker(this.name, required(this.version, "version"));
			case CANCEL_REQUESTED -> new CancelRequested(this.reason);
			case SIGNAL_RECEIVED -> new SignalReceived(this.name, this.payload);
			case UPDATE_ACCEPTED -> new UpdateAccepted(this.messageId, this.name, this.payload);
			case UPDATE_COMPLETED -> new UpdateCompleted(this.messageId, this.payload, this.failure);
			case START_CHILD ->
				new StartChild(requiredSeq(), this.name, this.messageId, this.payload, this.reason, this.child);
			case CHILD_STARTED -> new ChildStarted(requiredSeq(), this.messageId);
			case CHILD_START_FAILED -> new ChildStartFailed(requiredSeq(), this.failure);
			case CHILD_CLOSED -> new ChildClosed(requiredSeq(), this.payload, this.failure);
			case SIGNAL_EXTERNAL ->
				new SignalExternal(requiredSeq(), this.messageId, this.reason, this.name, this.payload);
			case CANCEL_EXTERNAL -> new CancelExternal(requiredSeq(), this.messageId, this.reason);
			case EXTERNAL_DELIVERED -> new ExternalDelivered(requiredSeq(), this.failure);
			case UPSERT_SEARCH_ATTRIBUTES -> new UpsertSearchAttributes(this.payload);
			case UPSERT_MEMO -> new UpsertMemo(this.payload);
			case EVENT_SET -> new EventSet(this.name, this.payload);
			case STREAM_WRITE -> new StreamWrite(this.name, requiredSeq(), this.payload);
			case STREAM_CLOSED -> new StreamClosed(this.name, requiredSeq());
			case WORKFLOW_COMPLETED -> new WorkflowCompleted(this.payload);
			case WORKFLOW_FAILED -> new WorkflowFailed(this.failure);
			case WORKFLOW_CANCELED -> new WorkflowCanceled(this.failure);
			case CONTINUED_AS_NEW -> new ContinuedAsNew(this.payload);
			case WORKFLOW_TERMINATED -> new WorkflowTerminated(this.failure, this.reason);
			case WORKFLOW_TIMED_OUT -> new WorkflowTimedOut(this.failure, this.reason);
			case ACTIVITY_PAUSED -> new ActivityPaused(requiredSeq(), this.reason, this.name);
			case ACTIVITY_UNPAUSED -> new ActivityUnpaused(requiredSeq());
			case ACTIVITY_RESET -> new ActivityReset(requiredSeq(), !ActivityReset.DROP.equals(this.name));
			case ACTIVITY_OPTIONS_UPDATED -> new ActivityOptionsUpdated(requiredSeq(), this.options);
			case TOPIC_WAIT_STARTED -> new TopicWaitStarted(requiredSeq(), this.name, this.messageId,
					(this.reason != null) ? Long.valueOf(this.reason) : null);
			case TOPIC_WAIT_ENDED -> new TopicWaitEnded(requiredSeq());
			case TOPIC_EVENT_RECEIVED -> new TopicEventReceived(requiredSeq(), this.name, this.messageId,
					Long.parseLong(required(this.reason, "position")), this.payload, this.fireAt);
		};
	}

	private long requiredSeq() {
		return required(this.seq, "seq");
	}

	private <T> T required(T value, String field) {
		if (value == null) {
			throw new IllegalStateException("A stored " + this.type + " event has no " + field);
		}
		return value;
	}

	/** Whether a command issued on replay is the same as this recorded one. */
	boolean sameCommand(StoredEvent other) {
		return this.type == other.type && Objects.equals(this.seq, other.seq) && Objects.equals(this.name, other.name)
				&& Objects.equals(this.version, other.version) && Objects.equals(this.messageId, other.messageId);
	}

	/** A short description for non-determinism messages. */
	String describe() {
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

}
