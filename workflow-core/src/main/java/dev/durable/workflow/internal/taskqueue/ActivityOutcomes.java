package dev.durable.workflow.internal.taskqueue;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.store.ActivityPauses;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.Sql;

/**
 * Where an attempt's outcome goes: each write is one statement, fenced by the attempt's
 * token (or made under the row lock of a sweep), so that of two outcomes of one attempt
 * only the first changes anything.
 * <ul>
 * <li>A final outcome deletes the activity's row and adds it to the run's inbox, marking
 * the run as having pending input in the same statement (the run cannot close past unseen
 * input); the run's owner then takes it in its next workflow task.</li>
 * <li>A retry puts the row back to SCHEDULED with the next attempt's number and due
 * time.</li>
 * </ul>
 */
public final class ActivityOutcomes {

	private final JdbcTemplate jdbc;

	private final String schema;

	private final ActivityPauses pauses;

	public ActivityOutcomes(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
		this.pauses = new ActivityPauses(jdbc, schema);
	}

	/** What operators set for activities: pauses, options, resets. */
	public ActivityPauses pauses() {
		return this.pauses;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * What a delivery did.
	 *
	 * @param applied whether this call recorded the outcome (false: the attempt was over
	 * already)
	 * @param runId the run
	 * @param owner the run's owner when it was applied (to wake), or {@code null}
	 */
	public record Delivered(boolean applied, UUID runId, UUID owner) {
	}

	/**
	 * Hands a final outcome (ACTIVITY_COMPLETED with the result, ACTIVITY_FAILED with the
	 * failure) to the run, if the attempt with this token is still the activity's current
	 * one.
	 * @param token the attempt's token, or {@code null} inside a sweep that holds the
	 * row's lock
	 */
	public Delivered deliver(UUID runId, long seq, UUID token, InboxKind kind, byte[] payload) {
		return intoInbox("DELETE FROM #.activity WHERE run_id = ? AND seq = ? AND (?::uuid IS NULL OR token = ?::uuid)"
				+ " RETURNING run_id, seq", runId, kind, payload, runId, seq, token, token);
	}

	/**
	 * Runs a statement on the activity's row (a CTE {@code done} returning its run id and
	 * seq) and puts an item of the kind into the inbox of the run it returned, marking
	 * the run as having pending input, in the same statement.
	 * @param params the parameters of {@code done}
	 */
	private Delivered intoInbox(String done, UUID runId, InboxKind kind, byte[] payload, Object... params) {
		Object[] all = java.util.Arrays.copyOf(params, params.length + 2);
		all[params.length] = kind.stored();
		all[params.length + 1] = payload;
		List<Delivered> delivered = this.jdbc.query(q("WITH done AS (" + done + "),"
				+ " ins AS (INSERT INTO #.inbox (run_id, kind, name, payload) SELECT run_id, ?, seq::text, ? FROM done"
				+ " RETURNING run_id),"
				+ " upd AS (UPDATE #.workflow_run r SET pending_input = true, inbox_seq = inbox_seq + 1 FROM ins"
				+ " WHERE r.run_id = ins.run_id AND " + Sql.open("r") + " RETURNING r.owner_node)"
				+ " SELECT (SELECT count(*) FROM ins) AS applied, (SELECT owner_node FROM upd) AS owner"),
				(rs, n) -> new Delivered(rs.getLong("applied") > 0, runId, Sql.uuid(rs, "owner")), all);
		return delivered.isEmpty() ? new Delivered(false, runId, null) : delivered.get(0);
	}

	/**
	 * Puts the activity back in its queue for its next attempt, if the attempt with this
	 * token is still its current one.
	 * @param token the attempt's token, or {@code null} inside a sweep that holds the
	 * row's lock
	 * @param lastHeartbeat the failed attempt's last heartbeat details, kept for the next
	 * attempt
	 */
	public boolean retry(UUID runId, long seq, UUID token, int failedAttempt, Instant nextAttemptAt, byte[] failure,
			byte[] lastHeartbeat) {
		return retry(runId, seq, token, failedAttempt, failedAttempt + 1, nextAttemptAt, failure, lastHeartbeat, false);
	}

	/**
	 * {@link #retry} with the next attempt's number: attempt 1 again after a reset that
	 * came while the failed attempt ran, which may drop the heartbeat details.
	 */
	public boolean retry(UUID runId, long seq, UUID token, int failedAttempt, int nextAttempt, Instant nextAttemptAt,
			byte[] failure, byte[] lastHeartbeat, boolean dropDetails) {
		return this.jdbc.update(q("UPDATE #.activity SET attempt = ?, next_attempt_at = ?, last_failure = ?,"
				+ " heartbeat_details = CASE WHEN ? THEN NULL ELSE COALESCE(?, heartbeat_details) END,"
				+ " state = 'SCHEDULED', token = NULL, claimed_by = NULL, claimed_incarnation = NULL, started_at = NULL,"
				+ " last_heartbeat_at = NULL"
				+ " WHERE run_id = ? AND seq = ? AND attempt = ? AND (?::uuid IS NULL OR token = ?::uuid)"),
				nextAttempt, Sql.ts(nextAttemptAt), failure, dropDetails, lastHeartbeat, runId, seq, failedAttempt,
				token, token) == 1;
	}

	/**
	 * {@link #retry} of an inline activity's attempt failed through the completion
	 * client: the run's owner starts the next attempt, so an ACTIVITY_RETRY item wakes
	 * it, in the same statement.
	 */
	public Delivered retryInline(UUID runId, long seq, UUID token, Instant nextAttemptAt, byte[] failure) {
		return intoInbox("UPDATE #.activity SET attempt = attempt + 1, next_attempt_at = ?, last_failure = ?,"
				+ " state = 'SCHEDULED', token = NULL, claimed_by = NULL, started_at = NULL WHERE run_id = ? AND seq = ?"
				+ " AND token = ? RETURNING run_id, seq", runId, InboxKind.ACTIVITY_RETRY, null, Sql.ts(nextAttemptAt),
				failure, runId, seq, token);
	}

	/**
	 * Records a heartbeat of the attempt with this token.
	 * @param details the details, or {@code null} to keep the last ones
	 * @return whether the attempt is still the activity's current one
	 */
	public boolean heartbeat(UUID runId, long seq, UUID token, byte[] details, Instant at) {
		return heartbeatSeen(runId, seq, token, details, at) != Heartbeat.GONE;
	}

	/** What a heartbeat found. */
	public enum Heartbeat {

		/** The attempt is no longer the activity's current one. */
		GONE,

		/** The attempt is current. */
		CURRENT,

		/** The attempt is current, and the activity is paused. */
		PAUSED

	}

	/**
	 * Records a heartbeat of the attempt with this token, and reads whether the activity
	 * is paused, in one statement.
	 * @param details the details, or {@code null} to keep the last ones
	 */
	public Heartbeat heartbeatSeen(UUID runId, long seq, UUID token, byte[] details, Instant at) {
		List<Boolean> paused = this.jdbc.query(q("UPDATE #.activity a SET heartbeat_details = COALESCE(?,"
				+ " a.heartbeat_details), last_heartbeat_at = ? WHERE a.run_id = ? AND a.seq = ? AND a.token = ?"
				+ " RETURNING NOT " + ActivityPauses.activityNotPaused("a.run_id", "a.seq") + " AS paused"),
				(rs, n) -> rs.getBoolean("paused"), details, Sql.ts(at), runId, seq, token);
		return paused.isEmpty() ? Heartbeat.GONE : (paused.get(0) ? Heartbeat.PAUSED : Heartbeat.CURRENT);
	}

	/**
	 * The attempt's method returned without completing it: it waits for the completion
	 * client.
	 */
	public boolean awaitCompletion(UUID runId, long seq, UUID token) {
		return this.jdbc.update(q("UPDATE #.activity SET state = 'ASYNC' WHERE run_id = ? AND seq = ? AND token = ?"),
				runId, seq, token) == 1;
	}

	/**
	 * The attempt with this token, as its row holds it, for the completion client.
	 *
	 * @param activityType the activity type
	 * @param optionsJson its options
	 * @param attempt the attempt number
	 * @param scheduledAt when it was first scheduled
	 * @param onTaskQueue whether it is on a task queue (else inline: its owner retries
	 * it)
	 */
	public record Current(String activityType, byte[] optionsJson, int attempt, Instant scheduledAt,
			boolean onTaskQueue) {
	}

	/** The attempt with this token, or empty when it is over. */
	public Optional<Current> current(UUID runId, long seq, UUID token) {
		return this.jdbc
			.query(q("SELECT activity_type, options, attempt, scheduled_at, task_queue FROM #.activity"
					+ " WHERE run_id = ? AND seq = ? AND token = ?"),
					(rs, n) -> new Current(rs.getString("activity_type"), rs.getBytes("options"), rs.getInt("attempt"),
							Sql.instant(rs, "scheduled_at"), rs.getString("task_queue") != null),
					runId, seq, token)
			.stream()
			.findFirst();
	}

}
