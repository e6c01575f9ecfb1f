package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The builds of a namespace: the ones its nodes ran, the operator's routing choice, the
 * drain status of each, and the moves of pinned runs from one build to another.
 */
public final class BuildRepository {

	private final JdbcTemplate jdbc;

	private final String schema;

	public BuildRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = Sql.checkIdentifier(schema);
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * The routing of a namespace as stored.
	 *
	 * @param currentBuild the build the operator made current, or {@code null}
	 * @param newestLiveBuild the newest build (first seen last) that has a live node, or
	 * {@code null}
	 * @param rampingBuild the ramping build, or {@code null}
	 * @param rampingPercent the percentage of new runs it takes
	 */
	public record StoredRouting(@Nullable String currentBuild, @Nullable String newestLiveBuild,
			@Nullable String rampingBuild, int rampingPercent) {

		/** The build new runs and auto-upgrading runs go to (but the ramped ones). */
		public @Nullable String effectiveCurrent() {
			return (this.currentBuild != null) ? this.currentBuild : this.newestLiveBuild;
		}

	}

	/** One statement: the operator's choice and the newest build with a live node. */
	public StoredRouting routing(String namespace, long deadAfterMillis) {
		return this.jdbc.queryForObject(q("SELECT rt.current_build, rt.ramping_build, COALESCE(rt.ramping_percent, 0)"
				+ " AS ramping_percent, (SELECT b.build_id FROM #.worker_build b WHERE b.namespace = ? AND EXISTS"
				+ " (SELECT 1 FROM #.node n WHERE n.namespace = b.namespace AND n.build_id = b.build_id"
				+ " AND n.last_heartbeat > now() - make_interval(secs => ?))"
				+ " ORDER BY b.first_seen_at DESC, b.build_id DESC LIMIT 1) AS newest"
				+ " FROM (SELECT 1) one LEFT JOIN #.build_routing rt ON rt.namespace = ?"),
				(rs, n) -> new StoredRouting(rs.getString("current_build"), rs.getString("newest"),
						rs.getString("ramping_build"), rs.getInt("ramping_percent")),
				namespace, deadAfterMillis / 1000.0, namespace);
	}

	/** Records that a node of the build runs (first time only). */
	public void seen(String namespace, String buildId) {
		this.jdbc.update(q("INSERT INTO #.worker_build (namespace, build_id) VALUES (?, ?) ON CONFLICT DO NOTHING"),
				namespace, buildId);
	}

	/**
	 * A node of the build is live (its heartbeat), and, when {@code lastTaskAt} is not
	 * {@code null}, committed a workflow task then.
	 */
	public void live(String namespace, String buildId, @Nullable Instant lastTaskAt) {
		this.jdbc.update(
				q("UPDATE #.worker_build SET last_seen_at = now(),"
						+ " last_task_at = GREATEST(last_task_at, ?) WHERE namespace = ? AND build_id = ?"),
				Sql.ts(lastTaskAt), namespace, buildId);
	}

	/** Makes a build current ({@code null}: the newest build with a live node). */
	public void setCurrent(String namespace, @Nullable String buildId) {
		this.jdbc.update(q("INSERT INTO #.build_routing AS rt (namespace, current_build) VALUES (?, ?)"
				+ " ON CONFLICT (namespace) DO UPDATE SET current_build = EXCLUDED.current_build, updated_at = now(),"
				// a build made current stops ramping
				+ " ramping_build = CASE WHEN rt.ramping_build = EXCLUDED.current_build THEN NULL"
				+ " ELSE rt.ramping_build END, ramping_percent = CASE WHEN rt.ramping_build = EXCLUDED.current_build"
				+ " THEN 0 ELSE rt.ramping_percent END"), namespace, buildId);
	}

	/** Ramps a build to a percentage of new runs ({@code null}: no ramping build). */
	public void setRamping(String namespace, @Nullable String buildId, int percent) {
		this.jdbc.update(
				q("INSERT INTO #.build_routing (namespace, ramping_build, ramping_percent) VALUES (?, ?, ?)"
						+ " ON CONFLICT (namespace) DO UPDATE SET ramping_build = EXCLUDED.ramping_build,"
						+ " ramping_percent = EXCLUDED.ramping_percent, updated_at = now()"),
				namespace, buildId, (buildId != null) ? percent : 0);
	}

	/**
	 * One build as the drain status reads it.
	 *
	 * @param buildId the build
	 * @param firstSeenAt when a node of it first ran, or {@code null} (only runs name it)
	 * @param lastTaskAt when a node of it last committed a workflow task, or {@code null}
	 * @param liveNodes how many of its nodes are live
	 * @param openPinnedRuns its open pinned runs
	 * @param refusedMoves how many of those a move refused
	 */
	public record StoredBuild(String buildId, @Nullable Instant firstSeenAt, @Nullable Instant lastTaskAt,
			int liveNodes, long openPinnedRuns, long refusedMoves) {
	}

	/**
	 * The builds of the namespace: those its nodes ran within the given time (a build
	 * long gone and drained drops out of the list) and those its open runs name.
	 * @param keptMillis how long after its last node a build stays listed (zero or
	 * negative: forever)
	 */
	public List<StoredBuild> builds(String namespace, long deadAfterMillis, long keptMillis) {
		return this.jdbc.query(q("WITH ids AS (SELECT build_id FROM #.worker_build WHERE namespace = ?"
				+ " AND (? <= 0 OR last_seen_at > now() - make_interval(secs => ?))"
				+ " UNION SELECT DISTINCT build_id FROM #.workflow_run WHERE namespace = ? AND status = 'RUNNING'"
				+ " AND pinned AND build_id IS NOT NULL)" + " SELECT ids.build_id, b.first_seen_at, b.last_task_at,"
				+ " (SELECT count(*) FROM #.node n WHERE n.namespace = ? AND n.build_id = ids.build_id"
				+ " AND n.last_heartbeat > now() - make_interval(secs => ?)) AS live,"
				+ " (SELECT count(*) FROM #.workflow_run r WHERE r.namespace = ? AND r.status = 'RUNNING' AND r.pinned"
				+ " AND r.build_id = ids.build_id) AS pinned_runs,"
				+ " (SELECT count(*) FROM #.workflow_run r WHERE r.namespace = ? AND r.status = 'RUNNING' AND r.pinned"
				+ " AND r.build_id = ids.build_id AND r.move_refused IS NOT NULL) AS refused"
				+ " FROM ids LEFT JOIN #.worker_build b ON b.namespace = ? AND b.build_id = ids.build_id"
				+ " ORDER BY b.first_seen_at DESC NULLS LAST, ids.build_id"),
				(rs, n) -> new StoredBuild(rs.getString("build_id"), Sql.instant(rs, "first_seen_at"),
						Sql.instant(rs, "last_task_at"), rs.getInt("live"), rs.getLong("pinned_runs"),
						rs.getLong("refused")),
				namespace, keptMillis, keptMillis / 1000.0, namespace, namespace, deadAfterMillis / 1000.0, namespace,
				namespace, namespace);
	}

	/**
	 * What describe adds to a run's build as its row holds it.
	 *
	 * @param buildLive whether a node of its build is live
	 * @param moveRefused why the last move was refused, or {@code null}
	 */
	public record RunBuildState(boolean buildLive, @Nullable String moveRefused) {
	}

	/** Whether a node of the run's build is live, and why its last move was refused. */
	public @Nullable RunBuildState runBuild(UUID runId, long deadAfterMillis) {
		List<RunBuildState> found = this.jdbc.query(
				q("SELECT r.move_refused,"
						+ " EXISTS (SELECT 1 FROM #.node n WHERE n.namespace = r.namespace AND n.build_id = r.build_id"
						+ " AND n.last_heartbeat > now() - make_interval(secs => ?)) AS live"
						+ " FROM #.workflow_run r WHERE r.run_id = ?"),
				(rs, n) -> new RunBuildState(rs.getBoolean("live"), rs.getString("move_refused")),
				deadAfterMillis / 1000.0, runId);
		return found.isEmpty() ? null : found.get(0);
	}

	/**
	 * Moves an open pinned run from one build to another: the run is released (its epoch
	 * bumped, so a task of the old owner under way commits nothing) and marked as having
	 * input, so a node of the new build takes it.
	 * @return whether it moved (false: no longer open, not pinned, or on another build)
	 */
	public boolean move(UUID runId, String fromBuild, String toBuild) {
		return this.jdbc.update(q("UPDATE #.workflow_run SET build_id = ?, owner_node = NULL, epoch = epoch + 1,"
				+ " pending_input = true, move_refused = NULL WHERE run_id = ? AND " + Sql.OPEN
				+ " AND pinned AND build_id = ?"), toBuild, runId, fromBuild) == 1;
	}

	/**
	 * An open pinned run.
	 *
	 * @param runId run id
	 * @param workflowId workflow id
	 * @param workflowType type
	 * @param buildId the build it is pinned to
	 */
	public record PinnedRun(UUID runId, String workflowId, String workflowType, String buildId) {
	}

	private static final String PINNED_RUN = "SELECT r.run_id, r.workflow_id, r.workflow_type, r.build_id"
			+ " FROM #.workflow_run r WHERE r.namespace = ? AND r.status = 'RUNNING' AND r.pinned";

	private static PinnedRun pinnedRun(java.sql.ResultSet rs) throws java.sql.SQLException {
		return new PinnedRun(Sql.uuid(rs, "run_id"), rs.getString("workflow_id"), rs.getString("workflow_type"),
				rs.getString("build_id"));
	}

	/** The open runs pinned to a build, of one type or of all, oldest first. */
	public List<PinnedRun> pinnedRuns(String namespace, String buildId, @Nullable String workflowType, int limit) {
		return this.jdbc.query(
				q(PINNED_RUN + " AND r.build_id = ? AND (?::text IS NULL OR r.workflow_type = ?)"
						+ " ORDER BY r.created_at LIMIT ?"),
				(rs, n) -> pinnedRun(rs), namespace, buildId, workflowType, workflowType, limit);
	}

	/** The open run, when it is pinned. */
	public List<PinnedRun> pinnedRun(String namespace, UUID runId) {
		return this.jdbc.query(q(PINNED_RUN + " AND r.run_id = ?"), (rs, n) -> pinnedRun(rs), namespace, runId);
	}

	/** Records why a move was refused (the run stays on its build). */
	public void refuseMove(UUID runId, String reason) {
		this.jdbc.update(q("UPDATE #.workflow_run SET move_refused = ? WHERE run_id = ? AND " + Sql.OPEN), reason,
				runId);
	}

	/**
	 * The open pinned runs of a type whose build has no live node and whose last node
	 * heartbeat at least the given time ago, no move refused yet: what the automatic
	 * policy moves.
	 */
	public List<PinnedRun> stranded(String namespace, String workflowType, String exceptBuild, long deadAfterMillis,
			long goneForMillis, int limit) {
		return this.jdbc.query(q(PINNED_RUN + " AND r.build_id IS NOT NULL AND r.build_id <> ? AND r.workflow_type = ?"
		// the build's last node gone long enough (a build no node row names any
		// more counts as gone)
				+ " AND r.move_refused IS NULL AND NOT EXISTS (SELECT 1 FROM #.node n WHERE n.namespace = r.namespace"
				+ " AND n.build_id = r.build_id AND n.last_heartbeat > now() - make_interval(secs => ?))"
				+ " AND NOT EXISTS (SELECT 1 FROM #.worker_build b WHERE b.namespace = r.namespace"
				+ " AND b.build_id = r.build_id AND b.last_seen_at > now() - make_interval(secs => ?)) LIMIT ?"),
				(rs, n) -> pinnedRun(rs), namespace, exceptBuild, workflowType, deadAfterMillis / 1000.0,
				goneForMillis / 1000.0, limit);
	}

}
