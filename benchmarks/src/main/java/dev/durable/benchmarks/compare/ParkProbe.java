package dev.durable.benchmarks.compare;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The benchmark's side channel out of workflow code: how many waiting workflows reached
 * their wait (outside replay). Non-deterministic on purpose, allowed only because it
 * measures and changes nothing the workflows record; real workflows must never do this.
 */
final class ParkProbe {

	private static final AtomicInteger reached = new AtomicInteger();

	private ParkProbe() {
	}

	static void reset() {
		reached.set(0);
	}

	static void reached() {
		reached.incrementAndGet();
	}

	/**
	 * Waits until {@code count} workflows reached their wait; false after the timeout.
	 */
	static boolean await(int count, long timeout, TimeUnit unit) {
		long deadline = System.nanoTime() + unit.toNanos(timeout);
		while (reached.get() < count) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			try {
				Thread.sleep(5);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return true;
	}

	static int count() {
		return reached.get();
	}

}
