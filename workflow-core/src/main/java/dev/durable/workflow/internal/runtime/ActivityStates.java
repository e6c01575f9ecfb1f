package dev.durable.workflow.internal.runtime;

import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.durable.workflow.ActivityFailure;
import dev.durable.workflow.ActivityOptions;
import dev.durable.workflow.CanceledFailure;
import dev.durable.workflow.PayloadException;
import dev.durable.workflow.Promise;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.history.Failures;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Activities of a run. Transitions: scheduled (ACTIVITY_SCHEDULED command) to completed or failed
 * (ACTIVITY_COMPLETED / ACTIVITY_FAILED input), or to canceled (ACTIVITY_CANCEL_REQUESTED command
 * when its scope is canceled: the workflow sees the failure at once, the attempt's result is dropped).
 */
final class ActivityStates {

	private record Pending(ScheduledActivity scheduled, Type resultType, PromiseImpl<Object> promise,
			CancellationScopeImpl scope, Runnable cancelHook) {
	}

	private final CommandRecorder commands;

	private final Payloads payloads;

	private final Map<Long, Pending> pending = new LinkedHashMap<>();

	ActivityStates(CommandRecorder commands, Payloads payloads) {
		this.commands = commands;
		this.payloads = payloads;
	}

	Promise<Object> schedule(long seq, String name, byte[] args, Type resultType, ActivityOptions options,
			CancellationScopeImpl scope, java.time.Instant now) {
		this.commands.emit(Event.activityScheduled(seq, name, args, options));
		PromiseImpl<Object> promise = new PromiseImpl<>();
		Runnable hook = () -> {
			if (this.pending.remove(seq) != null) {
				this.commands.emit(Event.of(EventType.ACTIVITY_CANCEL_REQUESTED, seq));
				promise.fail(new ActivityFailure(name, seq, 0, new CanceledFailure(scope.reason())));
			}
		};
		this.pending.put(seq, new Pending(new ScheduledActivity(seq, name, args, options, now), resultType, promise,
				scope, hook));
		scope.onCancel(hook);
		return promise;
	}

	/** Applies an ACTIVITY_COMPLETED or ACTIVITY_FAILED input. @return false when no longer pending */
	boolean resolve(Event input) {
		Pending activity = this.pending.remove(input.seq());
		if (activity == null) {
			return false;
		}
		activity.scope().removeHook(activity.cancelHook());
		if (input.type() == EventType.ACTIVITY_FAILED) {
			activity.promise().fail(Failures.toException(input.failure(), this.payloads.converter()));
			return true;
		}
		try {
			activity.promise().complete(this.payloads.decode(input.payload(), activity.resultType(),
					"the result of activity " + activity.scheduled().name()));
		}
		catch (PayloadException ex) {
			activity.promise().fail(ex);
		}
		return true;
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
