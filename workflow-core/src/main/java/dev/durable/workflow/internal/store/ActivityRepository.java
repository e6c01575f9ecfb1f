package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * Pending activities: failed attempts with their retry time, heartbeats, recovery after a
 * takeover.
 */
public final class ActivityRepository {

	private final JdbcTemplate jdbc;

	private final String schema;

	private final ActivityPauses pauses;

	public ActivityRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
		this.pauses = new ActivityPauses(jdbc, schema);
	}

	/** What operators set for the activities: pauses, options, resets. */
	public ActivityPauses pauses() {
		return this.pauses;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * Whether the run is paused now: an inline retry that comes due checks before it
	 * starts (no task may have read the pause yet).
	 */
	public boolean runPaused(UUID runId) {
		return Boolean.TRUE
			.equals(this.jdbc.query(q("SELECT paused_at IS NOT NULL FROM #.workflow_run WHERE run_id = ?"),
					(rs) -> rs.next() ? rs.getBoolean(1) : null, runId));
	}

	public List<StoredActivity> pending(UUID runId) {
		return this.jdbc.query(q("SELECT run_id, seq, activity_type, input, options, attempt, scheduled_at,"
				+ " next_attempt_at, last_failure, heartbeat_details FROM #.activity WHERE run_id = ? ORDER BY seq"),
				(rs, n) -> new StoredActivity(Sql.uuid(rs, "run_id"), rs.getLong("seq"), rs.getString("activity_type"),
						rs.getBytes("input"), InternalJson.read(rs.getBytes("options"), ActivityOptions.class),
						rs.getInt("attempt"), Sql.instant(rs, "scheduled_at"), Sql.instant(rs, "next_attempt_at"),
						rs.getBytes("last_failure"), rs.getBytes("heartbeat_details")),
				runId);
	}

	/**
	 * A pending activity's row as describe shows it.
	 *
	 * @param seq the activity's seq
	 * @param activityType its type
	 * @param taskQueue its task queue, or {@code null} (inline)
	 * @param attempt the attempt running or next (0: never attempted)
	 * @param scheduledAt when it was first scheduled
	 * @param nextAttemptAt when the next attempt is due
	 * @param lastFailure the last failed attempt's failure (JSON), or {@code null}
	 * @param state SCHEDULED, STARTED, ASYNC or COMPLETED, as the table's changesets
	 * describe them
	 * @param startedAt when the attempt was claimed or gave out its token, or
	 * {@code null}
	 * @param lastHeartbeatAt when it last heartbeated, or {@code null}
	 */
	public record Described(long seq, String activityType, String taskQueue, int attempt, Instant scheduledAt,
			Instant nextAttemptAt, byte[] lastFailure, String state, Instant startedAt, Instant lastHeartbeatAt) {
	}

	/** The run's activity rows, inline and on task queues, for describe. */
	public List<Described> described(UUID runId) {
		return this.jdbc.query(q("SELECT seq, activity_type, task_queue, attempt, scheduled_at, next_attempt_at,"
				+ " last_failure, state, started_at, last_heartbeat_at FROM #.activity WHERE run_id = ? ORDER BY seq"),
				(rs, n) -> new Described(rs.getLong("seq"), rs.getString("activity_type"), rs.getString("task_queue"),
						rs.getInt("attempt"), Sql.instant(rs, "scheduled_at"), Sql.instant(rs, "next_attempt_at"),
						rs.getBytes("last_failure"), rs.getString("state"), Sql.instant(rs, "started_at"),
						Sql.instant(rs, "last_heartbeat_at")),
				runId);
	}

	/**
	 * Writes the rows of activities scheduled on a task queue, due at once (inside the
	 * scheduling task's commit, or a reset's transaction). Their timeouts are copied to
	 * columns, so that any node can enforce them with one query.
	 */
	public void insertQueued(String namespace, String workflowId, List<StoredActivity> activities) {
		if (activities.isEmpty()) {
			return;
		}
		this.jdbc.batchUpdate(
				q("INSERT INTO #.activity (run_id, seq, activity_type, task_queue, input, options, attempt,"
						+ " scheduled_at, next_attempt_at, namespace, workflow_id, state, priority, partition_key,"
						+ " schedule_to_start_ms, start_to_close_ms, heartbeat_timeout_ms, close_deadline)"
						+ " VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, 'SCHEDULED', ?, ?, ?, ?, ?, ?)"),
				activities, activities.size(), (ps, a) -> {
					ActivityOptions o = a.options();
					ps.setObject(1, a.runId());
					ps.setLong(2, a.seq());
					ps.setString(3, a.activityType());
					ps.setString(4, o.taskQueue());
					ps.setBytes(5, a.input());
					ps.setBytes(6, InternalJson.writeCached(o));
					ps.setTimestamp(7, Sql.ts(a.scheduledAt()));
					ps.setTimestamp(8, Sql.ts(a.nextAttemptAt()));
					ps.setString(9, namespace);
					ps.setString(10, workflowId);
					ps.setInt(11, o.priority());
					ps.setString(12, o.partitionKey());
					ps.setObject(13, millis(o.scheduleToStartTimeout()));
					ps.setObject(14, millis(o.startToCloseTimeout()));
					ps.setObject(15, millis(o.heartbeatTimeout()));
					ps.setTimestamp(16, (o.scheduleToCloseTimeout() != null)
							? Sql.ts(a.scheduledAt().plus(o.scheduleToCloseTimeout())) : null);
				});
	}

	private static Long millis(java.time.Duration duration) {
		return (duration != null) ? duration.toMillis() : null;
	}

	/**
	 * Persists a failed attempt and the time of the next one, only while this node still
	 * owns the run at the given epoch. The first attempt of an inline activity has no row
	 * yet: this writes it, with what the activity was scheduled with.
	 * @param activity the activity as its failed attempt ran
	 * @param lastHeartbeat the details of the attempt's last heartbeat, or {@code null}
	 * @return false when the node lost the run or another outcome of the attempt was
	 * stored first
	 */
	public boolean recordFailedAttempt(StoredActivity activity, Instant nextAttemptAt, byte[] failure,
			byte[] lastHeartbeat, UUID node, long epoch) {
		return recordFailedAttempt(activity, activity.attempt() + 1, nextAttemptAt, failure, lastHeartbeat, node,
				epoch);
	}

	/**
	 * {@link #recordFailedAttempt} with the next attempt's number: attempt 1 again after
	 * a reset that came while the failed attempt ran.
	 */
	public boolean recordFailedAttempt(StoredActivity activity, int nextAttempt, Instant nextAttemptAt, byte[] failure,
			byte[] lastHeartbeat, UUID node, long epoch) {
		return upsert(activity, nextAttempt, nextAttemptAt, failure, lastHeartbeat, null, node, epoch,
				"attempt = EXCLUDED.attempt, next_attempt_at = EXCLUDED.next_attempt_at,"
						+ " last_failure = EXCLUDED.last_failure, state = 'SCHEDULED', token = NULL, claimed_by = NULL,"
						+ " started_at = NULL, last_heartbeat_at = NULL");
	}

	/**
	 * Stores the details of an attempt's heartbeat, writing the activity's row if it has
	 * none yet (an inline activity's first attempt), while this node owns the run at the
	 * given epoch.
	 * @return false when nothing was written (the run is no longer owned here at that
	 * epoch)
	 */
	public boolean heartbeat(StoredActivity activity, byte[] details, Instant at, UUID node, long epoch) {
		return upsert(activity, activity.attempt(), activity.nextAttemptAt(), null, details, at, node, epoch,
				"attempt = EXCLUDED.attempt, heartbeat_details = EXCLUDED.heartbeat_details,"
						+ " last_heartbeat_at = EXCLUDED.last_heartbeat_at");
	}

	/**
	 * Records that the first attempt of an inline activity was never started (its node
	 * stopped first): the row holds attempt 0, so the node that takes the run over starts
	 * attempt 1 instead of counting it as lost. Only while this node owns the open run at
	 * the given epoch.
	 */
	public boolean recordNotStarted(StoredActivity activity, UUID node, long epoch) {
		return upsert(activity, 0, activity.nextAttemptAt(), null, null, null, node, epoch, "attempt = 0");
	}

	/**
	 * Gives an inline attempt a task token: writes its row (state STARTED, this node,
	 * since now) or sets the token on the row it has, while this node owns the open run
	 * at the given epoch.
	 */
	public boolean startAsync(StoredActivity activity, UUID token, Instant now, UUID node, long epoch) {
		return this.jdbc.update(q("INSERT INTO #.activity AS a (run_id, seq, activity_type, input, options, attempt,"
				+ " scheduled_at, next_attempt_at, heartbeat_details, state, token, claimed_by, started_at)"
				+ " SELECT r.run_id, ?, ?, ?, ?, ?, ?, ?, ?, 'STARTED', ?, ?, ? FROM #.workflow_run r WHERE r.run_id = ?"
				+ " AND r.owner_node = ? AND r.epoch = ? AND " + Sql.open("r")
				+ " ON CONFLICT (run_id, seq) DO UPDATE SET state = 'STARTED', token = EXCLUDED.token,"
				+ " claimed_by = EXCLUDED.claimed_by, started_at = EXCLUDED.started_at, attempt = EXCLUDED.attempt"
				+ " WHERE a.attempt IN (?, ?)"), activity.seq(), activity.activityType(), activity.input(),
				InternalJson.writeCached(activity.options()), activity.attempt(), Sql.ts(activity.scheduledAt()),
				Sql.ts(activity.nextAttemptAt()), activity.heartbeatDetails(), token, node, Sql.ts(now),
				activity.runId(), node, epoch, activity.attempt(), notStarted(activity)) == 1;
	}

	/**
	 * The attempt's method returned without completing it: it waits for the completion
	 * client.
	 */
	public boolean markAsync(UUID runId, long seq, UUID token) {
		return this.jdbc.update(q("UPDATE #.activity SET state = 'ASYNC' WHERE run_id = ? AND seq = ? AND token = ?"),
				runId, seq, token) == 1;
	}

	/**
	 * Persists the failure of an inline attempt that has a task token, unless the
	 * completion client recorded its outcome first (then that outcome is in the run's
	 * inbox and this changes nothing).
	 */
	public boolean retryAsync(StoredActivity activity, UUID token, Instant nextAttemptAt, byte[] failure,
			byte[] lastHeartbeat, UUID node, long epoch) {
		// the run's row has an attempt column too (its own retries): the activity's
		// columns are qualified
		return this.jdbc.update(
				q("UPDATE #.activity a SET attempt = a.attempt + 1, next_attempt_at = ?, last_failure = ?,"
						+ " heartbeat_details = COALESCE(?, a.heartbeat_details), state = 'SCHEDULED', token = NULL,"
						+ " claimed_by = NULL, started_at = NULL, last_heartbeat_at = NULL FROM #.workflow_run r"
						+ " WHERE a.run_id = ? AND a.seq = ?"
						+ " AND a.token = ? AND r.run_id = a.run_id AND r.owner_node = ? AND r.epoch = ?"),
				Sql.ts(nextAttemptAt), failure, lastHeartbeat, activity.runId(), activity.seq(), token, node,
				epoch) == 1;
	}

	/**
	 * Records the result of a transactional activity's attempt, inside that activity's
	 * own transaction: the row says COMPLETED with the encoded result, so that a node
	 * that takes the run over before the result reaches the history hands it over instead
	 * of running the activity again. Fenced like the other writes by the run's owner and
	 * epoch, and it locks the run's row (FOR SHARE) until the transaction ends: a claim
	 * of the run by another node (which bumps the epoch) waits for this transaction, then
	 * finds the result; a claim that came first makes this write fail, and the activity's
	 * transaction rolls back.
	 * @return false when this node no longer owns the run at the epoch, or the row holds
	 * another attempt or another outcome
	 */
	public boolean recordTransactionalResult(StoredActivity activity, byte[] result, UUID node, long epoch) {
		return this.jdbc.update(q("INSERT INTO #.activity AS a (run_id, seq, activity_type, input, options, attempt,"
				+ " scheduled_at, next_attempt_at, state, result)"
				+ " SELECT r.run_id, ?, ?, ?, ?, ?, ?, ?, 'COMPLETED', ? FROM #.workflow_run r WHERE r.run_id = ?"
				+ " AND r.owner_node = ? AND r.epoch = ? AND " + Sql.open("r") + " FOR SHARE OF r"
				+ " ON CONFLICT (run_id, seq) DO UPDATE SET state = 'COMPLETED', result = EXCLUDED.result,"
				+ " attempt = EXCLUDED.attempt WHERE a.attempt IN (?, ?) AND a.state = 'SCHEDULED'"), activity.seq(),
				activity.activityType(), activity.input(), InternalJson.writeCached(activity.options()),
				activity.attempt(), Sql.ts(activity.scheduledAt()), Sql.ts(activity.nextAttemptAt()), result,
				activity.runId(), node, epoch, activity.attempt(), notStarted(activity)) == 1;
	}

	/**
	 * The results transactional activities of the run recorded that its history does not
	 * hold yet, by seq.
	 */
	public java.util.Map<Long, byte[]> transactionalResults(UUID runId) {
		java.util.Map<Long, byte[]> found = new java.util.HashMap<>();
		this.jdbc.query(q("SELECT seq, result FROM #.activity WHERE run_id = ? AND state = 'COMPLETED'"), (rs) -> {
			found.put(rs.getLong("seq"), rs.getBytes("result"));
		}, runId);
		return found;
	}

	/**
	 * An inline attempt waiting for the completion client, as its row holds it.
	 *
	 * @param token the attempt's token
	 * @param startedAt when the attempt started
	 * @param lastHeartbeatAt its last heartbeat, or {@code null}
	 */
	public record AsyncAttempt(UUID token, Instant startedAt, Instant lastHeartbeatAt) {
	}

	/**
	 * How many attempts of the activity were made, as its row says: the row's attempt
	 * when it was started (claimed from its task queue, awaiting the completion client,
	 * or its result committed), else the attempts before the one it waits to start; 0
	 * without a row (an inline activity's first attempt writes none) or when its first
	 * attempt never started.
	 */
	public int attemptsMade(UUID runId, long seq) {
		return this.jdbc
			.query(q("SELECT CASE WHEN state IN ('STARTED', 'ASYNC', 'COMPLETED') THEN attempt"
					+ " ELSE greatest(attempt - 1, 0) END AS made FROM #.activity WHERE run_id = ? AND seq = ?"),
					(rs, n) -> rs.getInt("made"), runId, seq)
			.stream()
			.findFirst()
			.orElse(0);
	}

	/**
	 * When the activity's row last recorded a heartbeat, or {@code null} (no row, or no
	 * heartbeat yet).
	 */
	public Instant lastHeartbeatAt(UUID runId, long seq) {
		// a row without a heartbeat maps to null, which a stream's findFirst would refuse
		List<Instant> found = this.jdbc.query(
				q("SELECT last_heartbeat_at FROM #.activity WHERE run_id = ? AND seq = ?"),
				(rs, n) -> Sql.instant(rs, "last_heartbeat_at"), runId, seq);
		return found.isEmpty() ? null : found.get(0);
	}

	/** The run's inline attempts that wait for the completion client, by activity seq. */
	public java.util.Map<Long, AsyncAttempt> asyncAttempts(UUID runId) {
		java.util.Map<Long, AsyncAttempt> found = new java.util.HashMap<>();
		this.jdbc.query(q("SELECT seq, token, started_at, last_heartbeat_at FROM #.activity WHERE run_id = ?"
				+ " AND state = 'ASYNC' AND task_queue IS NULL"), (rs) -> {
					found.put(rs.getLong("seq"), new AsyncAttempt(Sql.uuid(rs, "token"), Sql.instant(rs, "started_at"),
							Sql.instant(rs, "last_heartbeat_at")));
				}, runId);
		return found;
	}

	/**
	 * Writes the activity's row as given, or, when it has one for the same attempt,
	 * changes it as {@code onConflict} says; only while this node owns the open run at
	 * the given epoch.
	 */
	private boolean upsert(StoredActivity activity, int attempt, Instant nextAttemptAt, byte[] failure,
			byte[] heartbeat, Instant heartbeatAt, UUID node, long epoch, String onConflict) {
		return this.jdbc.update(
				q("INSERT INTO #.activity AS a (run_id, seq, activity_type, input, options, attempt,"
						+ " scheduled_at, next_attempt_at, last_failure, heartbeat_details, last_heartbeat_at)"
						+ " SELECT r.run_id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM #.workflow_run r WHERE r.run_id = ?"
						+ " AND r.owner_node = ? AND r.epoch = ? AND " + Sql.open("r")
						+ " ON CONFLICT (run_id, seq) DO UPDATE SET " + onConflict
						+ " WHERE a.attempt IN (?, ?) AND a.state <> 'COMPLETED'"),
				activity.seq(), activity.activityType(), activity.input(), InternalJson.writeCached(activity.options()),
				attempt, Sql.ts(activity.scheduledAt()), Sql.ts(nextAttemptAt), failure, heartbeat, Sql.ts(heartbeatAt),
				activity.runId(), node, epoch, activity.attempt(), notStarted(activity)) == 1;
	}

	/**
	 * The attempt a row may also hold for a write of this attempt: a first attempt's row
	 * may say 0, "never started" (a reset, or a node that stopped before starting it);
	 * the write makes it 1.
	 */
	private static int notStarted(StoredActivity activity) {
		return (activity.attempt() == 1) ? 0 : activity.attempt();
	}

}
