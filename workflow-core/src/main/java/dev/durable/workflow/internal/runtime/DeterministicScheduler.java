package dev.durable.workflow.internal.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a run's coroutines one at a time, in creation order, until every one is blocked. A
 * switch happens only when a coroutine blocks in an engine call, so the interleaving is
 * the same on every replay.
 */
final class DeterministicScheduler {

	private final List<Coroutine> coroutines = new ArrayList<>();

	private final long yieldTimeoutMillis;

	private boolean abandoned;

	DeterministicScheduler(long yieldTimeoutMillis) {
		this.yieldTimeoutMillis = yieldTimeoutMillis;
	}

	/**
	 * Where the next message handler goes: ahead of the threads that were already there.
	 */
	private int messageIndex;

	void add(Coroutine coroutine) {
		this.coroutines.add(coroutine);
	}

	/** Starts an activation: its message handlers run first, in the order received. */
	void beginActivation() {
		this.messageIndex = 0;
	}

	/**
	 * Adds a thread that runs before the ones already there (after earlier inserts of
	 * this activation).
	 */
	void addFirst(Coroutine coroutine) {
		this.coroutines.add(this.messageIndex++, coroutine);
	}

	/** Live threads matching a filter, for "all handlers finished". */
	long count(java.util.function.Predicate<Coroutine> filter) {
		return this.coroutines.stream().filter((c) -> !c.isDone()).filter(filter).count();
	}

	/**
	 * Steps ready coroutines until none is ready or {@code stop} says so.
	 * @return false when a coroutine did not yield in time (it is abandoned)
	 */
	boolean runUntilBlocked(java.util.function.BooleanSupplier stop) throws InterruptedException {
		// the timeout bounds the whole activation, not each thread's turn
		long deadline = System.nanoTime() + this.yieldTimeoutMillis * 1_000_000;
		boolean progress = true;
		while (progress && !stop.getAsBoolean()) {
			progress = false;
			for (int i = 0; i < this.coroutines.size(); i++) {
				Coroutine coroutine = this.coroutines.get(i);
				if (!coroutine.isReady()) {
					continue;
				}
				long remaining = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
				if (!coroutine.step(remaining)) {
					this.abandoned = true;
					return false;
				}
				progress = true;
				if (stop.getAsBoolean()) {
					break;
				}
			}
			this.coroutines.removeIf(Coroutine::isDone);
		}
		return true;
	}

	/** Unwinds every coroutine that is still alive. */
	void destroyAll() {
		if (this.abandoned) {
			// a coroutine still runs user code: it is unwound when it next calls the
			// engine
			this.coroutines.forEach(Coroutine::requestDestroy);
		}
		else {
			this.coroutines.forEach(Coroutine::destroy);
		}
		this.coroutines.clear();
	}

	int size() {
		return this.coroutines.size();
	}

	/** The coroutines that have not ended (each parked where its code waits). */
	List<Coroutine> live() {
		return this.coroutines.stream().filter((c) -> !c.isDone()).toList();
	}

}
