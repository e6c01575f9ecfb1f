package dev.durable.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The benchmark's side channel out of workflow code: when each signal's handler first ran
 * ({@link System#nanoTime()}), by sequence number. One measurement at a time.
 */
final class HandlerProbe {

	private static volatile AtomicLongArray handledAt = new AtomicLongArray(0);

	private static final AtomicInteger handledCount = new AtomicInteger();

	private static final AtomicInteger duplicates = new AtomicInteger();

	private static final AtomicInteger replays = new AtomicInteger();

	private static volatile Thread waiter;

	private HandlerProbe() {
	}

	/**
	 * Forgets everything; sequence numbers {@code 0 .. capacity - 1} may be reported
	 * next.
	 */
	static void reset(int capacity) {
		handledAt = new AtomicLongArray(capacity);
		handledCount.set(0);
		duplicates.set(0);
		replays.set(0);
		waiter = null;
	}

	/** Called by the handler. The first report of a sequence number wins. */
	static void handled(int seq, boolean replaying) {
		long now = System.nanoTime();
		AtomicLongArray times = handledAt;
		if (seq < 0 || seq >= times.length()) {
			return;
		}
		if (replaying) {
			replays.incrementAndGet();
			return;
		}
		if (times.compareAndSet(seq, 0, now)) {
			handledCount.incrementAndGet();
			Thread thread = waiter;
			if (thread != null) {
				LockSupport.unpark(thread);
			}
		}
		else {
			// the handler ran twice for one signal outside replay: a duplicate delivery
			duplicates.incrementAndGet();
		}
	}

	/** When the handler of the signal first ran, or 0 if it has not. */
	static long handledAt(int seq) {
		return handledAt.get(seq);
	}

	static int handledCount() {
		return handledCount.get();
	}

	static int duplicates() {
		return duplicates.get();
	}

	static int replays() {
		return replays.get();
	}

	/** Waits until the signal's handler ran; returns its time, or 0 after the timeout. */
	static long awaitHandled(int seq, long timeoutNanos) {
		long deadline = System.nanoTime() + timeoutNanos;
		waiter = Thread.currentThread();
		try {
			long at;
			while ((at = handledAt.get(seq)) == 0) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return 0;
				}
				LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
			}
			return at;
		}
		finally {
			waiter = null;
		}
	}

	/**
	 * Waits until at least {@code count} signals were handled; false after the timeout.
	 */
	static boolean awaitCount(int count, long timeoutNanos) {
		long deadline = System.nanoTime() + timeoutNanos;
		waiter = Thread.currentThread();
		try {
			while (handledCount.get() < count) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return false;
				}
				LockSupport.parkNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
			}
			return true;
		}
		finally {
			waiter = null;
		}
	}

}
