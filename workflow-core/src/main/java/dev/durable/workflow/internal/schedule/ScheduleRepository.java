package dev.durable.workflow.internal.schedule;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * The {@code schedule} row and its {@code schedule_action} records. Steps change a row
 * only after a compare-and-set on its version; a firing is claimed by inserting its key.
 */
public final class ScheduleRepository {

	private static final String COLUMNS = "namespace, schedule_id, spec, policies, action, state, paused,"
			+ " next_run_at, version, created_at, updated_at";

	/**
	 * Due: a spec time passed, or buffered firings and none of the schedule's workflows
	 * open.
	 */
	private static final String DUE = "NOT paused AND (next_run_at <= ? OR (buffered > 0 AND NOT EXISTS ("
			+ "SELECT 1 FROM #.schedule_action a JOIN #.workflow_run r ON r.namespace = a.namespace"
			+ " AND r.workflow_id = a.workflow_id AND r.status = 'RUNNING' WHERE a.namespace = s.namespace"
			+ " AND a.schedule_id = s.schedule_id AND a.outcome = 'STARTED')))";

	private final JdbcTemplate jdbc;

	private final String schema;

	private final RowMapper<ScheduleRow> rowMapper = this::mapRow;

	public ScheduleRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return sql.replace("#.", this.schema + ".");
	}

	private static Timestamp ts(Instant instant) {
		return (instant != null) ? Timestamp.from(instant) : null;
	}

	private static Instant instant(ResultSet rs, String column) throws SQLException {
		Timestamp timestamp = rs.getTimestamp(column);
		return (timestamp != null) ? timestamp.toInstant() : null;
	}

	private ScheduleRow mapRow(ResultSet rs, int n) throws SQLException {
		return new ScheduleRow(rs.getString("namespace"), rs.getString("schedule_id"),
				InternalJson.MAPPER.readValue(rs.getString("spec"), StoredSpec.class).toSpec(),
				InternalJson.MAPPER.readValue(rs.getString("policies"), SchedulePolicies.class),
				InternalJson.read(rs.getBytes("action"), StoredAction.class),
				InternalJson.MAPPER.readValue(rs.getString("state"), ScheduleState.class), rs.getBoolean("paused"),
				instant(rs, "next_run_at"), rs.getLong("version"), instant(rs, "created_at"),
				instant(rs, "updated_at"));
	}

	private static String json(Object value) {
		return InternalJson.MAPPER.writeValueAsString(value);
	}

	/**
	 * @return false when the id is taken
	 */
	boolean insert(ScheduleRow row) {
		return this.jdbc.update(
				q("INSERT INTO #.schedule (namespace, schedule_id, spec, policies, action, state,"
						+ " paused, next_run_at, buffered, created_at, updated_at) VALUES (?, ?, ?::jsonb, ?::jsonb, ?,"
						+ " ?::jsonb, ?, ?, 0, ?, ?) ON CONFLICT (namespace, schedule_id) DO NOTHING"),
				row.namespace(), row.scheduleId(), json(StoredSpec.of(row.spec())), json(row.policies()),
				InternalJson.write(row.action()), json(row.state()), row.paused(), ts(row.nextRunAt()),
				ts(row.createdAt()), ts(row.updatedAt())) == 1;
	}

	Optional<ScheduleRow> find(String namespace, String scheduleId) {
		return this.jdbc
			.query(q("SELECT " + COLUMNS + " FROM #.schedule WHERE namespace = ? AND schedule_id = ?"), this.rowMapper,
					namespace, scheduleId)
			.stream()
			.findFirst();
	}

	/** The row, locked for the rest of the transaction (waits for another step). */
	Optional<ScheduleRow> lock(String namespace, String scheduleId) {
		return this.jdbc
			.query(q("SELECT " + COLUMNS + " FROM #.schedule WHERE namespace = ? AND schedule_id = ?" + " FOR UPDATE"),
					this.rowMapper, namespace, scheduleId)
			.stream()
			.findFirst();
	}

	/** The row if it is still due and no other node is stepping it; locked. */
	Optional<ScheduleRow> lockDue(String namespace, String scheduleId, Instant now) {
		return this.jdbc
			.query(q("SELECT " + COLUMNS + " FROM #.schedule s WHERE namespace = ? AND schedule_id = ?" + " AND " + DUE
					+ " FOR UPDATE SKIP LOCKED"), this.rowMapper, namespace, scheduleId, ts(now))
			.stream()
			.findFirst();
	}

	List<String> dueIds(String namespace, Instant now, int limit) {
		return this.jdbc.queryForList(q("SELECT schedule_id FROM #.schedule s WHERE namespace = ? AND " + DUE
				+ " ORDER BY next_run_at NULLS FIRST LIMIT ?"), String.class, namespace, ts(now), limit);
	}

	/** The earliest due time of an unpaused schedule, or {@code null}. */
	Instant earliestDue(String namespace) {
		Timestamp earliest = this.jdbc.queryForObject(
				q("SELECT min(next_run_at) FROM #.schedule WHERE namespace = ? AND NOT paused"), Timestamp.class,
				namespace);
		return (earliest != null) ? earliest.toInstant() : null;
	}

	List<ScheduleRow> list(String namespace) {
		return this.jdbc.query(q("SELECT " + COLUMNS + " FROM #.schedule WHERE namespace = ? ORDER BY schedule_id"),
				this.rowMapper, namespace);
	}

	/**
	 * The compare-and-set that makes a step exclusive: bumps the version read by the
	 * step. Zero rows means another step (or a change) came first, or the schedule was
	 * deleted.
	 */
	boolean bumpVersion(ScheduleRow read) {
		return this.jdbc.update(
				q("UPDATE #.schedule SET version = version + 1 WHERE namespace = ?"
						+ " AND schedule_id = ? AND version = ?"),
				read.namespace(), read.scheduleId(), read.version()) == 1;
	}

	/**
	 * Writes the state a step computed (after {@link #bumpVersion}, so the row is
	 * locked).
	 */
	void writeState(ScheduleRow row) {
		this.jdbc.update(
				q("UPDATE #.schedule SET state = ?::jsonb, next_run_at = ?, buffered = ? WHERE namespace = ?"
						+ " AND schedule_id = ?"),
				json(row.state()), ts(row.nextRunAt()), row.state().buffer().size(), row.namespace(), row.scheduleId());
	}

	/**
	 * Replaces the whole row (update, pause, unpause), compare-and-set on the version.
	 */
	boolean replace(ScheduleRow row) {
		return this.jdbc.update(q("UPDATE #.schedule SET spec = ?::jsonb, policies = ?::jsonb, action = ?,"
				+ " state = ?::jsonb, paused = ?, next_run_at = ?, buffered = ?, updated_at = ?, version = version + 1"
				+ " WHERE namespace = ? AND schedule_id = ? AND version = ?"), json(StoredSpec.of(row.spec())),
				json(row.policies()), InternalJson.write(row.action()), json(row.state()), row.paused(),
				ts(row.nextRunAt()), row.state().buffer().size(), ts(row.updatedAt()), row.namespace(),
				row.scheduleId(), row.version()) == 1;
	}

	/** Deletes the schedule and its records. @return whether it existed */
	boolean delete(String namespace, String scheduleId) {
		this.jdbc.update(q("DELETE FROM #.schedule_action WHERE namespace = ? AND schedule_id = ?"), namespace,
				scheduleId);
		return this.jdbc.update(q("DELETE FROM #.schedule WHERE namespace = ? AND schedule_id = ?"), namespace,
				scheduleId) == 1;
	}

	/**
	 * Claims a firing: its key can be inserted once per schedule.
	 * @return false when it was processed before
	 */
	boolean claim(ScheduleRow row, String key, String origin, Instant nominal, Instant now) {
		return this.jdbc.update(
				q("INSERT INTO #.schedule_action (namespace, schedule_id, firing_key, origin,"
						+ " nominal_time, actual_time, outcome) VALUES (?, ?, ?, ?, ?, ?, 'CLAIMED')"
						+ " ON CONFLICT (namespace, schedule_id, firing_key) DO NOTHING"),
				row.namespace(), row.scheduleId(), key, origin, ts(nominal), ts(now)) == 1;
	}

	void record(ScheduleRow row, String key, String outcome, String workflowId, UUID runId, String reason,
			Instant now) {
		this.jdbc.update(
				q("UPDATE #.schedule_action SET outcome = ?, workflow_id = ?, run_id = ?, reason = ?,"
						+ " actual_time = ? WHERE namespace = ? AND schedule_id = ? AND firing_key = ?"),
				outcome, workflowId, runId, reason, ts(now), row.namespace(), row.scheduleId(), key);
	}

	/** The workflows the schedule started that are still open, oldest first. */
	List<String> running(String namespace, String scheduleId) {
		return this.jdbc
			.queryForList(
					q("SELECT a.workflow_id FROM #.schedule_action a JOIN #.workflow_run r"
							+ " ON r.namespace = a.namespace AND r.workflow_id = a.workflow_id AND r.status = 'RUNNING'"
							+ " WHERE a.namespace = ? AND a.schedule_id = ? AND a.outcome = 'STARTED'"
							+ " GROUP BY a.workflow_id ORDER BY min(a.nominal_time)"),
					String.class, namespace, scheduleId);
	}

	List<ScheduleActionResult> recent(String namespace, String scheduleId, int limit) {
		return this.jdbc.query(
				q("SELECT nominal_time, actual_time, origin, outcome, workflow_id, run_id, reason"
						+ " FROM #.schedule_action WHERE namespace = ? AND schedule_id = ?"
						+ " ORDER BY actual_time DESC, nominal_time DESC, firing_key DESC LIMIT ?"),
				(rs, n) -> new ScheduleActionResult(instant(rs, "nominal_time"), instant(rs, "actual_time"),
						ScheduleActionResult.Origin.valueOf(rs.getString("origin")),
						ScheduleActionResult.Outcome.valueOf(rs.getString("outcome")), rs.getString("workflow_id"),
						rs.getObject("run_id", UUID.class), rs.getString("reason")),
				namespace, scheduleId, limit);
	}

	/**
	 * Keeps the latest records of a schedule, and those it still needs: buffered firings
	 * and workflows still running (overlap policies look for them).
	 */
	void prune(String namespace, String scheduleId, int keep) {
		this.jdbc.update(
				q("DELETE FROM #.schedule_action a WHERE a.namespace = ? AND a.schedule_id = ?"
						+ " AND a.outcome IN ('SKIPPED', 'STARTED') AND a.firing_key NOT IN (SELECT k.firing_key"
						+ " FROM #.schedule_action k WHERE k.namespace = ? AND k.schedule_id = ?"
						+ " ORDER BY k.actual_time DESC, k.nominal_time DESC, k.firing_key DESC LIMIT ?)"
						+ " AND NOT EXISTS (SELECT 1 FROM #.workflow_run r WHERE r.namespace = a.namespace"
						+ " AND r.workflow_id = a.workflow_id AND r.status = 'RUNNING')"),
				namespace, scheduleId, namespace, scheduleId, keep);
	}

}
