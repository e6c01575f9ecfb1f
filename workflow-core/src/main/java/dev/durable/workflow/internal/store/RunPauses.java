package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Pausing and unpausing an open run: one statement each on its row, which every claim,
 * poll and task commit reads ({@code paused_at IS NULL}), so a pause holds on every node
 * at once and survives restarts.
 */
public final class RunPauses {

	private final JdbcTemplate jdbc;

	private final String schema;

	/**
	 * The condition that the run whose id is in the given column is not paused: a paused
	 * run starts no activity attempt (one running runs on). Its row is found by primary
	 * key. Written with {@code #.} for the schema.
	 */
	public static String runNotPaused(String runIdColumn) {
		return "NOT EXISTS (SELECT 1 FROM #.workflow_run p WHERE p.run_id = " + runIdColumn
				+ " AND p.paused_at IS NOT NULL)";
	}

	/**
	 * The condition that a deadline of the task-queue attempt {@code a} counts: a running
	 * attempt's always, a waiting one's unless its run is paused (the pause keeps it from
	 * starting; its deadlines act after the unpause).
	 */
	public static final String ATTEMPT_DEADLINES_COUNT = "(a.state <> 'SCHEDULED' OR " + runNotPaused("a.run_id") + ")";

	public RunPauses(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = Sql.checkIdentifier(schema);
	}

	/**
	 * The run's state after a pause or unpause.
	 *
	 * @param owner the node that owns the run, or {@code null}
	 * @param changed whether the call changed it (a second pause keeps the first one's
	 * time and reason)
	 */
	public record Paused(UUID owner, boolean changed) {
	}

	/**
	 * Pauses the open run (a paused run stays as it was paused).
	 * @return the owner and whether it changed, or empty when the run is not open
	 */
	public Optional<Paused> pause(UUID runId, String reason, Instant now) {
		return first(this.jdbc.query(
				Sql.q(this.schema, "UPDATE #.workflow_run w SET paused_at = COALESCE(w.paused_at, ?),"
						+ " pause_reason = CASE WHEN w.paused_at IS NULL THEN ? ELSE w.pause_reason END"
						+ " FROM (SELECT run_id, paused_at AS was FROM #.workflow_run WHERE run_id = ? FOR UPDATE) o"
						+ " WHERE w.run_id = o.run_id AND " + Sql.open("w")
						+ " RETURNING w.owner_node, o.was IS NULL AS changed"),
				(rs, n) -> new Paused(Sql.uuid(rs, "owner_node"), rs.getBoolean("changed")), Sql.ts(now), reason,
				runId));
	}

	/**
	 * Unpauses the open run. The run is marked as having input, so that the node that
	 * owns it, or any node when none does, runs a task for it even when nothing else
	 * arrived meanwhile.
	 * @return the owner and whether it changed, or empty when the run is not open
	 */
	public Optional<Paused> unpause(UUID runId) {
		return first(this.jdbc.query(
				Sql.q(this.schema, "UPDATE #.workflow_run w SET paused_at = NULL, pause_reason = NULL,"
						+ " pending_input = w.pending_input OR o.was IS NOT NULL"
						+ " FROM (SELECT run_id, paused_at AS was FROM #.workflow_run WHERE run_id = ? FOR UPDATE) o"
						+ " WHERE w.run_id = o.run_id AND " + Sql.open("w")
						+ " RETURNING w.owner_node, o.was IS NOT NULL AS changed"),
				(rs, n) -> new Paused(Sql.uuid(rs, "owner_node"), rs.getBoolean("changed")), runId));
	}

	private static Optional<Paused> first(List<Paused> rows) {
		return rows.stream().findFirst();
	}

}
