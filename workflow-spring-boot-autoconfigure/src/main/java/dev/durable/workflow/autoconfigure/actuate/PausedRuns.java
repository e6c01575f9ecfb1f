package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.engine.WorkflowEngine;

/**
 * The number of open runs an operator paused, for the
 * {@code durable.workflow.runs.paused} gauge: read from the database at most once per
 * refresh interval, by whichever scrape comes first; a database that cannot be read
 * leaves the last count.
 */
final class PausedRuns {

	static final Duration DEFAULT_REFRESH = Duration.ofSeconds(10);

	/** Only the paused count is read; the stuck threshold does not change it. */
	private static final Duration ANY_STUCK_AFTER = Duration.ofMinutes(5);

	private final Supplier<@Nullable WorkflowEngine> engine;

	private final long refreshNanos;

	private long readAt;

	private boolean read;

	private double count;

	PausedRuns(Supplier<@Nullable WorkflowEngine> engine, Duration refresh) {
		this.engine = engine;
		this.refreshNanos = refresh.toNanos();
	}

	synchronized double count() {
		long now = System.nanoTime();
		if (this.read && now - this.readAt < this.refreshNanos) {
			return this.count;
		}
		WorkflowEngine current = this.engine.get();
		if (current == null) {
			return this.count;
		}
		try {
			this.count = current.backlog(null, ANY_STUCK_AFTER).paused();
			this.read = true;
			this.readAt = now;
		}
		catch (RuntimeException ex) {
			// the database is unreachable: the gauge keeps its last value
		}
		return this.count;
	}

}
