package dev.durable.workflow.internal.schedule;

import java.time.Instant;
import java.util.List;

/**
 * The changing part of a schedule, stored as jsonb on its row and rewritten by each step.
 *
 * @param cursor the last spec time processed (fired, skipped or missed); later times are pending
 * @param buffer firings waiting for the running workflow to close, oldest first
 * @param actions workflows started
 * @param skipped firings skipped
 * @param missed firings later than the catch-up window
 * @param note the pause note
 */
record ScheduleState(Instant cursor, List<Buffered> buffer, long actions, long skipped, long missed, String note) {

	ScheduleState {
		buffer = (buffer != null) ? List.copyOf(buffer) : List.of();
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
