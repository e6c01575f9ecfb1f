package dev.durable.workflow.internal.schedule;

import java.time.Instant;
import java.util.List;

/**
 * The changing part of a schedule, stored as jsonb on its row and rewritten by each step.
 *
 * @param cursor the last spec time processed (fired, skipped or missed); later times are
 * pending
 * @param buffer firings waiting for the running workflow to close, oldest first
 * @param actions workflows started
 * @param skipped firings skipped
 * @param missed firings later than the catch-up window
 * @param note the pause note
 * @param remaining limited actions: starts of scheduled firings still allowed, or
 * {@code null} when unlimited. Kept here rather than in a column: it changes with the
 * counters, in the step that starts the workflow, under the same compare-and-set on the
 * row's version (a state written before limited actions existed reads as unlimited)
 */
record ScheduleState(Instant cursor, List<Buffered> buffer, long actions, long skipped, long missed, String note,
		Long remaining) {

	ScheduleState {
		buffer = (buffer != null) ? List.copyOf(buffer) : List.of();
	}

	/** Whether no scheduled firing may start any more (limited actions used up). */
	boolean exhausted() {
		return this.remaining != null && this.remaining <= 0;
	}

	/**
	 * A firing waiting for the running workflow to close; its action row says BUFFERED.
	 *
	 * @param key the firing key
	 * @param nominal the nominal time
	 * @param origin SCHEDULED, TRIGGERED or BACKFILLED
	 */
	record Buffered(String key, Instant nominal, String origin) {
	}

}
