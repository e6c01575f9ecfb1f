package dev.durable.workflow.internal.runtime;

import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.durable.workflow.Promise;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.ActivityCancelRequested;
import dev.durable.workflow.internal.history.Event.ActivityCompleted;
import dev.durable.workflow.internal.history.Event.ActivityFailed;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Activities of a run. Transitions: scheduled (ACTIVITY_SCHEDULED command) to completed
 * or failed (ACTIVITY_COMPLETED / ACTIVITY_FAILED input), or to canceled
 * (ACTIVITY_CANCEL_REQUESTED command when its scope is canceled: the workflow sees the
 * failure at once, the attempt's result is dropped). The cancel records the
 * {@code ActivityFailure} the workflow sees, with the attempts made (the running one
 * included), so that a replay sees the same.
 */
final class ActivityStates {

	private record Pending(ScheduledActivity scheduled, Type resultType, PromiseImpl<Object> promise,
			CancellationScopeImpl scope, Runnable cancelHook) {
	}

	private final CommandRecorder commands;

	private final Payloads payloads;

	private final Map<Long, Pending> pending = new LinkedHashMap<>();

	private final ActivityAttempts attempts;

	/**
	 * @param attempts counts the attempts of an activity the workflow cancels (new tasks
	 * only)
	 */
	ActivityStates(CommandRecorder commands, Payloads payloads, ActivityAttempts attempts) {
		this.commands = commands;
		this.payloads = payloads;
		this.attempts = attempts;
	}

	Promise<Object> schedule(long seq, String name, byte[] args, Type resultType, ActivityOptions options,
			CancellationScopeImpl scope, java.time.Instant now) {
		this.commands.emit(Event.activityScheduled(seq, name, args, options));
		PromiseImpl<Object> promise = new PromiseImpl<>();
		Runnable hook = () -> {
			if (this.pending.remove(seq) != null) {
				ActivityCancelRequested recorded = this.commands
					.emit(Event.activityCancelRequested(seq, this.commands.isReplaying() ? null : FailureInfo
						.activity(name, seq, attemptsMade(seq), FailureInfo.canceled(scope.reason()))));
				// the count the cancel recorded (a history of before recorded none: 0, as
				// it was then)
				int attempts = (recorded.failure() != null && recorded.failure().attempt() != null)
						? recorded.failure().attempt() : 0;
				promise.fail(new ActivityFailure(name, seq, attempts, new CanceledFailure(scope.reason())));
			}
		};
		this.pending.put(seq,
				new Pending(new ScheduledActivity(seq, name, args, options, now), resultType, promise, scope, hook));
		scope.onCancel(hook);
		return promise;
	}

	/**
	 * How many attempts were made: the engine's count, read once, when the activity is
	 * canceled.
	 */
	private int attemptsMade(long seq) {
		try {
			return this.attempts.made(seq);
		}
		catch (RuntimeException ex) {
			// the count cannot be recorded: the task fails (and is retried), whatever the
			// code catches
			throw this.commands.failTask(new WorkflowTaskFailedException(
					"Could not read the attempts of activity " + seq + " to cancel it: " + ex.getMessage(), ex));
		}
	}

	/** Applies an ACTIVITY_COMPLETED input. @return false when no longer pending */
	boolean resolve(ActivityCompleted completed) {
		Pending activity = take(completed.seq());
		if (activity == null) {
			return false;
		}
		try {
			activity.promise()
				.complete(this.payloads.decode(completed.result(), activity.resultType(),
						"the result of activity " + activity.scheduled().name()));
		}
		catch (PayloadException ex) {
			activity.promise().fail(ex);
		}
		return true;
	}

	/** Applies an ACTIVITY_FAILED input. @return false when no longer pending */
	boolean resolve(ActivityFailed failed) {
		Pending activity = take(failed.seq());
		if (activity == null) {
			return false;
		}
		activity.promise().fail(Failures.toException(failed.failure(), this.payloads.converter()));
		return true;
	}

	private Pending take(long seq) {
		Pending activity = this.pending.remove(seq);
		if (activity != null) {
			activity.scope().removeHook(activity.cancelHook());
		}
		return activity;
	}

	boolean hasPendingInline() {
		for (Pending activity : this.pending.values()) {
			if (!activity.scheduled().options().onTaskQueue()) {
				return true;
			}
		}
		return false;
	}

	boolean isPending(long seq) {
		return this.pending.containsKey(seq);
	}

	/** The pending activities in the order they were scheduled. */
	java.util.List<ScheduledActivity> pendingScheduled() {
		return this.pending.values().stream().map(Pending::scheduled).toList();
	}

}
