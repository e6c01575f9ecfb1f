package dev.durable.workflow.internal.retention;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.internal.store.RetentionRepository;
import dev.durable.workflow.internal.support.Errors;

/**
 * Deletes runs closed longer ago than the retention, in small batches, from the node's
 * housekeeping.
 */
public final class Retention {

	private static final Logger log = LoggerFactory.getLogger(Retention.class);

	private static final int BATCH = 500;

	private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(2);

	private final RetentionRepository store;

	/**
	 * Whose closed runs go: each namespace's nodes apply their own retention to its runs
	 * only.
	 */
	private final String namespace;

	private final Duration keep;

	private final Clock clock;

	public Retention(RetentionRepository store, String namespace, Duration keep, Clock clock) {
		this.store = store;
		this.namespace = namespace;
		this.keep = keep;
		this.clock = clock;
	}

	/**
	 * Deletes batch by batch for about two seconds at most: a large backlog is spread
	 * over the minutes of housekeeping.
	 * @param running whether the node still runs (else it stops between batches)
	 */
	public void run(BooleanSupplier running) {
		long started = System.nanoTime();
		int total = 0;
		int deleted;
		try {
			do {
				deleted = once();
				total += deleted;
			}
			while (deleted == BATCH && running.getAsBoolean() && System.nanoTime() - started < BUDGET_NANOS);
		}
		catch (RuntimeException ex) {
			log.warn("Retention failed after deleting {} runs: {}", total, Errors.rootMessage(ex));
		}
		if (total > 0) {
			log.info("Retention deleted {} runs closed more than {} ago", total, this.keep);
		}
	}

	/**
	 * One batch: deletes up to 500 runs closed before now (engine clock) minus the
	 * retention, with their rows and the deduplication records their workflow ids no
	 * longer need; then, with the last batch, topic events dispatched before that time.
	 * Nothing when retention is disabled.
	 * @return how many runs were deleted
	 */
	public int once() {
		if (this.keep == null || this.keep.isZero() || this.keep.isNegative()) {
			return 0;
		}
		Instant cutoff = this.clock.instant().minus(this.keep);
		int deleted = this.store.deleteClosedBefore(this.namespace, cutoff, BATCH);
		if (deleted < BATCH) {
			this.store.deleteOrphanedInbox(BATCH);
			// events are kept as long as closed runs, so that a wait after an earlier
			// position finds them
			this.store.deleteEventsDispatchedBefore(this.namespace, cutoff, BATCH);
		}
		return deleted;
	}

}
