package dev.durable.workflow.internal.runtime;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.durable.workflow.Promise;
import dev.durable.workflow.failure.CanceledFailure;

/**
 * Durable waits on a condition: they block the calling workflow thread, never a real
 * thread.
 */
final class Waits {

	private Waits() {
	}

	/**
	 * Waits until the condition holds; a canceled scope ends the wait with
	 * CanceledFailure.
	 */
	static void await(Supplier<Boolean> condition) {
		Coroutine coroutine = WorkflowThread.coroutine();
		CancellationScopeImpl scope = coroutine.currentScope();
		coroutine.await(() -> condition.get() || scope.isCancelRequested());
		if (!condition.get()) {
			throw new CanceledFailure(scope.reason());
		}
	}

	/**
	 * Waits until the condition holds or a durable timer fires; a met condition cancels
	 * the timer.
	 * @return false when the timer fired first
	 */
	static boolean await(Duration timeout, Supplier<Boolean> condition, Function<Duration, Promise<Void>> newTimer,
			TimerStates timers) {
		if (condition.get()) {
			return true;
		}
		Coroutine coroutine = WorkflowThread.coroutine();
		CancellationScopeImpl scope = coroutine.currentScope();
		Promise<Void> timer = newTimer.apply(timeout);
		coroutine.await(() -> condition.get() || timer.isCompleted() || scope.isCancelRequested());
		if (condition.get()) {
			if (!timer.isCompleted()) {
				timers.cancel(timer, "condition met");
			}
			return true;
		}
		if (timer.isCompleted() && timer.getFailure() == null) {
			return false;
		}
		throw new CanceledFailure(scope.reason());
	}

}
