package dev.durable.workflow.internal.taskqueue;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementSetter;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.store.ActivityPauses;
import dev.durable.workflow.internal.store.RunPauses;
import dev.durable.workflow.internal.store.Sql;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * Claims of due attempts on task queues, and the check that claimed attempts are still
 * the activity's current ones (a cancel deletes the row; a timeout or a dead-worker sweep
 * moves it on).
 */
final class ActivityClaims {

	private final JdbcTemplate jdbc;

	private final String schema;

	private final java.time.Duration deadAfter;

	ActivityClaims(JdbcTemplate jdbc, String schema, java.time.Duration deadAfter) {
		this.deadAfter = deadAfter;
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * Claims up to {@code limit} due attempts of the given queues and activity types,
	 * most urgent first ({@code FOR UPDATE SKIP LOCKED}: nodes claiming at once take
	 * different rows). Each gets a new token, this node's incarnation and its start time.
	 */
	List<ClaimedActivity> claim(String namespace, Collection<String> queues, Collection<String> types, UUID node,
			long incarnation, Instant now, int limit) {
		return this.jdbc.query(q("WITH c AS (SELECT run_id, seq FROM #.activity WHERE task_queue = ANY(?)"
				// '*': this node has a dynamic activity, it runs any type
				+ " AND state = 'SCHEDULED' AND next_attempt_at <= ? AND namespace = ?"
				+ " AND (activity_type = ANY(?) OR '*' = ANY(?))" + " AND " + LIVE + " AND " + RUN_NOT_PAUSED + " AND "
				+ ACTIVITY_NOT_PAUSED + " ORDER BY priority DESC, next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED)"
				+ " UPDATE #.activity a SET " + CLAIM + " FROM c WHERE a.run_id = c.run_id AND a.seq = c.seq"
				+ RETURNING), (PreparedStatementSetter) (ps) -> {
					ps.setArray(1, ps.getConnection().createArrayOf("text", queues.toArray()));
					ps.setTimestamp(2, Sql.ts(now));
					ps.setString(3, namespace);
					ps.setArray(4, ps.getConnection().createArrayOf("text", types.toArray()));
					ps.setArray(5, ps.getConnection().createArrayOf("text", types.toArray()));
					ps.setObject(6, node);
					ps.setLong(7, incarnation);
					ps.setDouble(8, this.deadAfter.toMillis() / 1000.0);
					ps.setInt(9, limit);
					ps.setObject(10, node);
					ps.setLong(11, incarnation);
					ps.setTimestamp(12, Sql.ts(now));
				}, ActivityClaims::claimed);
	}

	/**
	 * Claims the given rows, those still waiting, as {@link #claim} does: for an
	 * admission round of a limited queue, which holds the queue's lock.
	 */
	List<ClaimedActivity> claimRows(List<ActivityQueueSource.Key> keys, UUID node, long incarnation, Instant now) {
		if (keys.isEmpty()) {
			return List.of();
		}
		return this.jdbc.query(
				q("UPDATE #.activity a SET " + CLAIM + " FROM unnest(?::uuid[], ?::bigint[]) AS k(run_id, seq)"
						+ " WHERE a.run_id = k.run_id AND a.seq = k.seq AND a.state = 'SCHEDULED' AND " + LIVE + " AND "
						+ RunPauses.runNotPaused("a.run_id") + " AND "
						+ ActivityPauses.activityNotPaused("a.run_id", "a.seq") + RETURNING),
				(PreparedStatementSetter) (ps) -> {
					ps.setObject(1, node);
					ps.setLong(2, incarnation);
					ps.setTimestamp(3, Sql.ts(now));
					ps.setArray(4, ps.getConnection()
						.createArrayOf("uuid", keys.stream().map(ActivityQueueSource.Key::runId).toArray()));
					ps.setArray(5, ps.getConnection()
						.createArrayOf("bigint", keys.stream().map(ActivityQueueSource.Key::seq).toArray()));
					ps.setObject(6, node);
					ps.setLong(7, incarnation);
					ps.setDouble(8, this.deadAfter.toMillis() / 1000.0);
				}, ActivityClaims::claimed);
	}

	/**
	 * A node declared dead claims nothing (its attempts are being retried elsewhere);
	 * parameters: node, incarnation, dead-after.
	 */
	private static final String LIVE = "EXISTS (SELECT 1 FROM #.node n WHERE n.node_id = ? AND n.incarnation = ?"
			+ " AND n.last_heartbeat > now() - make_interval(secs => ?))";

	/**
	 * The attempt's run is not paused: a paused run starts no attempt (one already
	 * started runs on).
	 */
	static final String RUN_NOT_PAUSED = RunPauses.runNotPaused("#.activity.run_id");

	/**
	 * The activity is not paused: a paused activity starts no attempt (one already
	 * started runs on).
	 */
	static final String ACTIVITY_NOT_PAUSED = ActivityPauses.activityNotPaused("#.activity.run_id", "#.activity.seq");

	/** What a claim sets; parameters: node, incarnation, now. */
	private static final String CLAIM = "state = 'STARTED', token = gen_random_uuid(), claimed_by = ?,"
			+ " claimed_incarnation = ?, started_at = ?, last_heartbeat_at = NULL";

	private static final String RETURNING = " RETURNING a.run_id, a.seq, a.namespace, a.workflow_id, a.activity_type,"
			+ " a.input, a.options, a.attempt, a.scheduled_at, a.next_attempt_at, a.heartbeat_details, a.token,"
			+ " a.started_at, (SELECT r.workflow_type FROM #.workflow_run r WHERE r.run_id = a.run_id) AS workflow_type,"
			+ " (SELECT p.options FROM #.run_payload p WHERE p.run_id = a.run_id) AS run_chain";

	private static ClaimedActivity claimed(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
		return new ClaimedActivity(Sql.uuid(rs, "run_id"), rs.getLong("seq"), rs.getString("namespace"),
				rs.getString("workflow_id"), rs.getString("workflow_type"), rs.getString("activity_type"),
				rs.getBytes("input"), InternalJson.read(rs.getBytes("options"), ActivityOptions.class),
				rs.getInt("attempt"), Sql.instant(rs, "scheduled_at"), Sql.instant(rs, "next_attempt_at"),
				rs.getBytes("heartbeat_details"), Sql.uuid(rs, "token"), Sql.instant(rs, "started_at"),
				rs.getBytes("run_chain"));
	}

	/**
	 * Of the given attempt tokens, those still current (the others were canceled or moved
	 * on).
	 */
	Set<UUID> current(Collection<ClaimedActivity> attempts) {
		if (attempts.isEmpty()) {
			return Set.of();
		}
		return Set.copyOf(this.jdbc.query(q("SELECT token FROM #.activity WHERE run_id = ANY(?) AND token = ANY(?)"),
				(PreparedStatementSetter) (ps) -> {
					ps.setArray(1, ps.getConnection()
						.createArrayOf("uuid", attempts.stream().map(ClaimedActivity::runId).distinct().toArray()));
					ps.setArray(2, ps.getConnection()
						.createArrayOf("uuid", attempts.stream().map(ClaimedActivity::token).toArray()));
				}, (rs, n) -> Sql.uuid(rs, "token")));
	}

	/**
	 * Those of the task queues that a flow-control queue of the same name limits (some
	 * node declared it).
	 */
	Set<String> declaredQueues(String namespace, Collection<String> queues) {
		if (queues.isEmpty()) {
			return Set.of();
		}
		return Set.copyOf(this.jdbc.query(q("SELECT name FROM #.queue WHERE namespace = ? AND name = ANY(?)"),
				(PreparedStatementSetter) (ps) -> {
					ps.setString(1, namespace);
					ps.setArray(2, ps.getConnection().createArrayOf("text", queues.toArray()));
				}, (rs, n) -> rs.getString("name")));
	}

	/** The earliest due time of a waiting attempt of these queues, or {@code null}. */
	Instant nextDue(String namespace, Collection<String> queues) {
		return this.jdbc.query(q("SELECT min(next_attempt_at) AS due FROM #.activity WHERE task_queue = ANY(?)"
				+ " AND state = 'SCHEDULED' AND namespace = ? AND " + RUN_NOT_PAUSED + " AND " + ACTIVITY_NOT_PAUSED),
				(PreparedStatementSetter) (ps) -> {
					ps.setArray(1, ps.getConnection().createArrayOf("text", queues.toArray()));
					ps.setString(2, namespace);
				}, (rs, n) -> Optional.ofNullable(Sql.instant(rs, "due")))
			.stream()
			.findFirst()
			.flatMap((due) -> due)
			.orElse(null);
	}

}
