package dev.durable.workflow.internal.support;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way a node's background services stop: each begins its stop at once (no new
 * round of its loop starts), then the node awaits each one's thread, within a bound, so
 * that nothing of it reaches the database after {@code shutdown()} returns. A thread
 * stuck in a statement past the bound is reported, not waited for forever.
 */
public final class BackgroundThreads {

	private static final Logger log = LoggerFactory.getLogger(BackgroundThreads.class);

	/** How long a stop waits for one service's thread to end. */
	public static final Duration STOP_BOUND = Duration.ofSeconds(10);

	private BackgroundThreads() {
	}

	/**
	 * Waits until the thread (which was told to stop) ended, at most {@link #STOP_BOUND}.
	 * @param thread the thread, or {@code null} when the service never started one
	 * @return whether it ended
	 */
	public static boolean awaitEnded(Thread thread) {
		if (thread == null || thread == Thread.currentThread()) {
			return true;
		}
		try {
			thread.join(STOP_BOUND.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (thread.isAlive()) {
			log.warn("Background thread {} did not stop within {}", thread.getName(), STOP_BOUND);
			return false;
		}
		return true;
	}

}
