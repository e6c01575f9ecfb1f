package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.ActivityOptions;
import dev.durable.workflow.internal.support.InternalJson;

/** Pending activities: failed attempts with their retry time, heartbeats, recovery after a takeover. */
public final class ActivityRepository {

	private final JdbcTemplate jdbc;

	private final String schema;

	public ActivityRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
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
	 * Persists a failed attempt and the time of the next one, only while this node still owns the
	 * run at the given epoch.
	 * @return false when the node lost the run or the activity is gone
	 */
	public boolean recordFailedAttempt(UUID runId, long seq, int failedAttempt, Instant nextAttemptAt, byte[] failure,
			UUID node, long epoch) {
		return this.jdbc.update(q("UPDATE #.activity a SET attempt = ?, next_attempt_at = ?, last_failure = ?"
				+ " FROM #.workflow_run r WHERE a.run_id = ? AND a.seq = ? AND a.attempt = ? AND r.run_id = a.run_id"
				+ " AND r.owner_node = ? AND r.epoch = ?"), failedAttempt + 1, Sql.ts(nextAttemptAt), failure, runId,
				seq, failedAttempt, node, epoch) == 1;
	}

	public void heartbeat(UUID runId, long seq, byte[] details, Instant at) {
		this.jdbc.update(q("UPDATE #.activity SET heartbeat_details = ?, last_heartbeat_at = ? WHERE run_id = ?"
				+ " AND seq = ?"), details, Sql.ts(at), runId, seq);
	}

}
