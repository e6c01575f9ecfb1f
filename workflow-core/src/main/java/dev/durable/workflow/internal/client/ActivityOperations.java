package dev.durable.workflow.internal.client;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.ActivityAttemptOptions;
import dev.durable.workflow.client.ActivityNotPendingException;
import dev.durable.workflow.client.ActivityOptionsUpdate;
import dev.durable.workflow.engine.WorkflowInterceptor.ClientOperation;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.store.ActivityPauses;
import dev.durable.workflow.internal.store.RunPauses;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.support.Interceptors;
import dev.durable.workflow.internal.worker.RunWaker;

/**
 * Pause, unpause, reset and new options of a pending activity of an open run: one
 * transaction each, which changes the activity's control row (and the row of a waiting
 * task-queue attempt) and puts the event that records it into the run's inbox; then the
 * run's owner is woken, whose next task records the event and starts again an inline
 * activity that was unpaused, reset or given new options.
 */
public final class ActivityOperations {

	private final RunDescriber describer;

	private final ActivityPauses pauses;

	private final TransactionTemplate tx;

	private final RunLookup lookup;

	private final RunWaker waker;

	private final Clock clock;

	private final Interceptors interceptors;

	public ActivityOperations(RunDescriber describer, ActivityPauses pauses, TransactionTemplate tx, RunLookup lookup,
			RunWaker waker, Clock clock, Interceptors interceptors) {
		this.describer = describer;
		this.pauses = pauses;
		this.tx = tx;
		this.lookup = lookup;
		this.waker = waker;
		this.clock = clock;
		this.interceptors = interceptors;
	}

	boolean pause(RunRow row, long activityId, @Nullable String reason) {
		pending(row, activityId);
		return operate(ClientOperation.PAUSE_ACTIVITY, row, activityId,
				() -> this.pauses.pause(row.runId(), activityId, reason, null, this.clock.instant())
						? Event.activityPaused(activityId, reason, null) : null);
	}

	boolean unpause(RunRow row, long activityId) {
		pending(row, activityId);
		return operate(ClientOperation.UNPAUSE_ACTIVITY, row, activityId,
				() -> this.pauses.unpause(row.runId(), activityId) ? Event.activityUnpaused(activityId) : null);
	}

	void reset(RunRow row, long activityId, boolean keepHeartbeatDetails) {
		pending(row, activityId);
		operate(ClientOperation.RESET_ACTIVITY, row, activityId, () -> {
			this.pauses.reset(row.runId(), activityId, keepHeartbeatDetails, this.clock.instant());
			return Event.activityReset(activityId, keepHeartbeatDetails);
		});
	}

	ActivityAttemptOptions updateOptions(RunRow row, long activityId, ActivityOptionsUpdate update) {
		Objects.requireNonNull(update, "update");
		if (update.isEmpty()) {
			throw new IllegalArgumentException("The options update changes nothing: give a retry policy or a timeout");
		}
		RunDescriber.Pending activity = pending(row, activityId);
		ActivityOptions current = (activity.options() != null) ? activity.options() : ActivityOptions.DEFAULT;
		ActivityOptions updated = applyTo(update, current);
		operate(ClientOperation.UPDATE_ACTIVITY_OPTIONS, row, activityId, () -> {
			this.pauses.updateOptions(row.runId(), activityId, updated);
			return Event.activityOptionsUpdated(activityId, updated);
		});
		return RunDescriber.attemptOptions(updated);
	}

	/**
	 * The options with the update's fields.
	 * @throws IllegalArgumentException when a timeout is not positive
	 */
	static ActivityOptions applyTo(ActivityOptionsUpdate update, ActivityOptions options) {
		ActivityOptions.Builder builder = options.toBuilder();
		if (update.retryPolicy() != null) {
			builder.retryPolicy(update.retryPolicy());
		}
		if (update.startToCloseTimeout() != null) {
			builder.startToCloseTimeout(positive(update.startToCloseTimeout(), "startToCloseTimeout"));
		}
		if (update.scheduleToCloseTimeout() != null) {
			builder.scheduleToCloseTimeout(positive(update.scheduleToCloseTimeout(), "scheduleToCloseTimeout"));
		}
		if (update.heartbeatTimeout() != null) {
			builder.heartbeatTimeout(positive(update.heartbeatTimeout(), "heartbeatTimeout"));
		}
		if (update.scheduleToStartTimeout() != null) {
			builder.scheduleToStartTimeout(positive(update.scheduleToStartTimeout(), "scheduleToStartTimeout"));
		}
		return builder.build();
	}

	private static Duration positive(Duration value, String name) {
		if (value.isNegative() || value.isZero()) {
			throw new IllegalArgumentException(name + " must be positive: " + value);
		}
		return value;
	}

	/**
	 * The pending activity of the open run.
	 * @throws ActivityNotPendingException when the run does not wait for it
	 */
	private RunDescriber.Pending pending(RunRow row, long activityId) {
		if (!row.isOpen()) {
			throw this.lookup.closed(row);
		}
		return this.describer.pendingWithOptions(row)
			.stream()
			.filter((a) -> a.activity().activityId() == activityId)
			.findFirst()
			.orElseThrow(() -> new ActivityNotPendingException(
					"Workflow " + row.workflowId() + " (run " + row.runId() + ") has no pending activity " + activityId
							+ ": none was scheduled with that id, or its outcome is recorded already"));
	}

	/**
	 * Changes the activity and records the event it returns (none: nothing changed), in
	 * one transaction, through the client interceptors; then wakes the run's owner.
	 * @return whether it changed
	 */
	private boolean operate(ClientOperation operation, RunRow row, long activityId, Supplier<Event> change) {
		return this.interceptors.client(operation, row.workflowType(), row.workflowId(), String.valueOf(activityId),
				(headers) -> operate(row, change));
	}

	private boolean operate(RunRow row, Supplier<Event> change) {
		RunPauses.Paused recorded = this.tx.execute((status) -> {
			Event event = change.get();
			if (event == null) {
				return new RunPauses.Paused(null, false);
			}
			RunPauses.Paused made = this.pauses.record(row.runId(), event);
			if (!made.changed()) {
				// the run closed meanwhile
				status.setRollbackOnly();
				throw this.lookup.closed(row);
			}
			return made;
		});
		if (recorded != null && recorded.changed()) {
			this.waker.wake(row.runId(), recorded.owner());
			return true;
		}
		return false;
	}

}
