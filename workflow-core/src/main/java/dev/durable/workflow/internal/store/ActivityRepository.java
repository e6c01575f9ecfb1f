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
	 * run at the given epoch. The first attempt of an inline activity has no row yet: this writes
	 * it, with what the activity was scheduled with.
	 * @param activity the activity as its failed attempt ran
	 * @param lastHeartbeat the details of the attempt's last heartbeat, or {@code null}
	 * @return false when the node lost the run or another outcome of the attempt was stored first
	 */
	public boolean recordFailedAttempt(StoredActivity activity, Instant nextAttemptAt, byte[] failure,
			byte[] lastHeartbeat, UUID node, long epoch) {
		return upsert(activity, activity.attempt() + 1, nextAttemptAt, failure, lastHeartbeat, null, node, epoch,
				"attempt = EXCLUDED.attempt, next_attempt_at = EXCLUDED.next_attempt_at,"
						+ " last_failure = EXCLUDED.last_failure");
	}

	/**
	 * Stores the details of an attempt's heartbeat, writing the activity's row if it has none yet
	 * (an inline activity's first attempt), while this node owns the run at the given epoch.
	 * @return false when nothing was written (the run is no longer owned here at that epoch)
	 */
	public boolean heartbeat(StoredActivity activity, byte[] details, Instant at, UUID node, long epoch) {
		return upsert(activity, activity.attempt(), activity.nextAttemptAt(), null, details, at, node, epoch,
				"heartbeat_details = EXCLUDED.heartbeat_details, last_heartbeat_at = EXCLUDED.last_heartbeat_at");
	}

	/**
	 * Writes the activity's row as given, or, when it has one for the same attempt, changes it as
	 * {@code onConflict} says; only while this node owns the open run at the given epoch.
	 */
	private boolean upsert(StoredActivity activity, int attempt, Instant nextAttemptAt, byte[] failure,
			byte[] heartbeat, Instant heartbeatAt, UUID node, long epoch, String onConflict) {
		return this.jdbc.update(q("INSERT INTO #.activity AS a (run_id, seq, activity_type, input, options, attempt,"
				+ " scheduled_at, next_attempt_at, last_failure, heartbeat_details, last_heartbeat_at)"
				+ " SELECT r.run_id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM #.workflow_run r WHERE r.run_id = ?"
				+ " AND r.owner_node = ? AND r.epoch = ? AND " + Sql.open("r")
				+ " ON CONFLICT (run_id, seq) DO UPDATE SET " + onConflict + " WHERE a.attempt = ?"), activity.seq(),
				activity.activityType(), activity.input(), InternalJson.writeCached(activity.options()), attempt,
				Sql.ts(activity.scheduledAt()), Sql.ts(nextAttemptAt), failure, heartbeat, Sql.ts(heartbeatAt),
				activity.runId(), node, epoch, activity.attempt()) == 1;
	}

}
