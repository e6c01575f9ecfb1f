package dev.durable.workflow.internal.runtime;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.durable.workflow.Promise;
import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.TimerStarted;

/**
 * Durable timers of a run. Transitions: started (TIMER_STARTED command) to fired
 * (TIMER_FIRED input) or to canceled (TIMER_CANCELED command, from a canceled scope or a
 * met await condition).
 */
final class TimerStates {

	private record Pending(long seq, Instant fireAt, PromiseImpl<Void> promise, CancellationScopeImpl scope,
			Runnable cancelHook) {
	}

	private final CommandRecorder commands;

	private final Map<Long, Pending> pending = new LinkedHashMap<>();

	TimerStates(CommandRecorder commands) {
		this.commands = commands;
	}

	Promise<Void> start(long seq, Instant fireAt, CancellationScopeImpl scope) {
		PromiseImpl<Void> promise = new PromiseImpl<>();
		TimerStarted recorded = this.commands.emit(Event.timerStarted(seq, fireAt));
		Runnable hook = () -> cancel(seq, scope.reason());
		this.pending.put(seq, new Pending(seq, recorded.fireAt(), promise, scope, hook));
		scope.onCancel(hook);
		return promise;
	}

	/** Applies a TIMER_FIRED input. @return false when the timer is no longer pending */
	boolean fire(long seq) {
		Pending timer = this.pending.remove(seq);
		if (timer == null) {
			return false;
		}
		timer.scope().removeHook(timer.cancelHook());
		timer.promise().complete(null);
		return true;
	}

	void cancel(long seq, String reason) {
		Pending timer = this.pending.remove(seq);
		if (timer != null) {
			timer.scope().removeHook(timer.cancelHook());
			this.commands.emit(Event.timerCanceled(seq));
			timer.promise().fail(new CanceledFailure(reason));
		}
	}

	/** Cancels the pending timer behind this promise, if any. */
	void cancel(Promise<Void> promise, String reason) {
		this.pending.values()
			.stream()
			.filter((t) -> t.promise() == promise)
			.findFirst()
			.ifPresent((t) -> cancel(t.seq(), reason));
	}

	Map<Long, Instant> fireTimes() {
		Map<Long, Instant> result = new LinkedHashMap<>();
		this.pending.values().forEach((t) -> result.put(t.seq(), t.fireAt()));
		return result;
	}

	Instant next() {
		return this.pending.values().stream().map(Pending::fireAt).min(Instant::compareTo).orElse(null);
	}

}
