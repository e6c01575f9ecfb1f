package dev.durable.workflow.internal.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Ends the wait of a workflow task for a coroutine that does not yield within the task
 * timeout. The task waits without a timeout and one daemon thread of the JVM looks at the
 * waits every {@link #TICK_MILLIS}: a timed wait on a virtual thread (the engine's task
 * threads) would wake the JDK's timer thread twice per step, which costs more than the
 * step itself. A timeout is noticed up to one tick late.
 */
final class YieldWatchdog {

	private static final long TICK_MILLIS = 25;

	/** The steps waited for, with their deadlines ({@link System#nanoTime()}). */
	private static final Map<Coroutine, Long> DEADLINES = new ConcurrentHashMap<>();

	static {
		Thread.ofPlatform().daemon().name("durable-yield-watchdog").start(YieldWatchdog::loop);
	}

	private YieldWatchdog() {
	}

	static void watch(Coroutine coroutine, long deadlineNanos) {
		DEADLINES.put(coroutine, deadlineNanos);
	}

	/**
	 * Stops watching a step that ended.
	 * @return false when the watchdog had already claimed it as timed out (it then ends
	 * the wait)
	 */
	static boolean unwatch(Coroutine coroutine) {
		return DEADLINES.remove(coroutine) != null;
	}

	private static void loop() {
		while (true) {
			try {
				TimeUnit.MILLISECONDS.sleep(TICK_MILLIS);
			}
			catch (InterruptedException ex) {
				continue; // it runs as long as the JVM: nothing stops it
			}
			long now = System.nanoTime();
			DEADLINES.forEach((coroutine, deadline) -> {
				// claimed by the removal: a step that ends meanwhile sees it and counts
				// as timed out
				if (now - deadline >= 0 && DEADLINES.remove(coroutine, deadline)) {
					coroutine.timedOut();
				}
			});
		}
	}

}
