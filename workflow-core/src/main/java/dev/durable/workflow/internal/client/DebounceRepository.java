package dev.durable.workflow.internal.client;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.store.Sql;

/**
 * The open debounce windows: one row per namespace and key, holding the last call's input
 * and start options and when the window fires. Calls change it with one upsert (the row
 * lock orders concurrent calls from any node); a firing locks it with SKIP LOCKED and
 * deletes it in the transaction that starts the run.
 */
final class DebounceRepository {

	private final JdbcTemplate jdbc;

	private final String schema;

	DebounceRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * A window as stored.
	 *
	 * @param key the debounce key
	 * @param workflowType the last call's workflow type
	 * @param workflowId the id of the window's run
	 * @param input the last call's encoded input
	 * @param options the last call's start options, as JSON
	 * @param firstAt the window's first call
	 * @param fireAt when it fires
	 * @param calls the calls it collapsed
	 */
	record Window(String key, String workflowType, String workflowId, byte[] input, byte[] options, Instant firstAt,
			Instant fireAt, int calls) {
	}

	/**
	 * Opens the key's window, or moves it: the input and options become this call's, and
	 * it fires {@code delay} after now but no later than {@code maxWait} after the
	 * window's first call.
	 * @param workflowId the id a window opened by this call gives its run
	 * @return the window after this call
	 */
	Window call(String namespace, String key, String workflowType, String workflowId, byte[] input, byte[] options,
			Instant now, Duration delay, Duration maxWait) {
		Instant quiet = now.plus(delay);
		return this.jdbc
			.queryForObject(q("INSERT INTO #.debounce AS d (namespace, debounce_key, workflow_type, workflow_id,"
					+ " input, options, first_at, fire_at, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)"
					+ " ON CONFLICT (namespace, debounce_key) DO UPDATE SET workflow_type = EXCLUDED.workflow_type,"
					+ " input = EXCLUDED.input, options = EXCLUDED.options,"
					+ " fire_at = LEAST(?, d.first_at + ? * interval '1 millisecond'), calls = d.calls + 1"
					+ " RETURNING debounce_key, workflow_type, workflow_id, input, options, first_at, fire_at, calls"),
					(rs, n) -> new Window(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBytes(4),
							rs.getBytes(5), Sql.instant(rs, "first_at"), Sql.instant(rs, "fire_at"), rs.getInt(8)),
					namespace, key, workflowType, workflowId, input, options, Sql.ts(now), Sql.ts(quiet), Sql.ts(quiet),
					maxWait.toMillis());
	}

	/** Keys of windows due at {@code now}, oldest first. */
	List<String> dueKeys(String namespace, Instant now, int limit) {
		return this.jdbc.queryForList(q("SELECT debounce_key FROM #.debounce WHERE namespace = ? AND fire_at <= ?"
				+ " ORDER BY fire_at LIMIT ?"), String.class, namespace, Sql.ts(now), limit);
	}

	/**
	 * Locks a due window (inside the firing's transaction), unless another node holds it
	 * or it moved.
	 */
	Optional<Window> lockDue(String namespace, String key, Instant now) {
		return this.jdbc
			.query(q("SELECT debounce_key, workflow_type, workflow_id, input, options, first_at, fire_at, calls"
					+ " FROM #.debounce WHERE namespace = ? AND debounce_key = ? AND fire_at <= ? FOR UPDATE SKIP LOCKED"),
					(rs, n) -> new Window(rs.getString(1), rs.getString(2), rs.getString(3), rs.getBytes(4),
							rs.getBytes(5), Sql.instant(rs, "first_at"), Sql.instant(rs, "fire_at"), rs.getInt(8)),
					namespace, key, Sql.ts(now))
			.stream()
			.findFirst();
	}

	void delete(String namespace, String key) {
		this.jdbc.update(q("DELETE FROM #.debounce WHERE namespace = ? AND debounce_key = ?"), namespace, key);
	}

	/** When the earliest window fires, or {@code null} when none is open. */
	Instant earliestDue(String namespace) {
		// min() answers one row, holding null when no window is open
		java.sql.Timestamp due = this.jdbc.queryForObject(q("SELECT min(fire_at) FROM #.debounce WHERE namespace = ?"),
				java.sql.Timestamp.class, namespace);
		return (due != null) ? due.toInstant() : null;
	}

}
