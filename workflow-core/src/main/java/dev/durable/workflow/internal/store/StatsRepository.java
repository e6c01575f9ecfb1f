package dev.durable.workflow.internal.store;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.engine.EngineStats;
import dev.durable.workflow.internal.registry.WorkflowRegistry;

/**
 * Read-only numbers for operators: runs by type and status, the backlog of runnable runs,
 * failing workflow tasks and the registered nodes. The open-run queries go through the
 * partial index of open runs ({@code workflow_run_open_id}, led by the namespace); only
 * the counts by status read the closed runs the retention keeps.
 */
public final class StatsRepository {

	private static final String COUNTS = "SELECT workflow_type, status, count(*) AS n FROM #.workflow_run"
			+ " WHERE namespace = ?";

	/** A run that may take a task: its task is not failing and it is not paused. */
	private static final String RUNS = "task_attempt = 0 AND paused_at IS NULL";

	/**
	 * Runnable: new input or a due wake time, task not failing, not paused. Input waits
	 * since its oldest inbox item (database clock); a due wake time since that time
	 * (engine clock).
	 */
	private static final String BACKLOG = "SELECT" + " count(*) FILTER (WHERE " + RUNS
			+ " AND (pending_input OR next_wake_at <= ?)) AS runnable," + " min(next_wake_at) FILTER (WHERE " + RUNS
			+ " AND next_wake_at <= ?) AS oldest_wake,"
			+ " max((SELECT EXTRACT(EPOCH FROM now() - min(i.created_at)) FROM #.inbox i WHERE i.run_id = r.run_id))"
			+ " FILTER (WHERE " + RUNS + " AND pending_input) AS oldest_input_seconds,"
			+ " count(*) FILTER (WHERE task_attempt > 0) AS failing,"
			+ " count(*) FILTER (WHERE task_attempt > 0 AND task_failing_since <= ?) AS stuck,"
			+ " count(*) FILTER (WHERE paused_at IS NOT NULL) AS paused"
			+ " FROM #.workflow_run r WHERE namespace = ? AND status = 'RUNNING'";

	private static final String FAILING = "SELECT workflow_id, run_id, workflow_type, task_attempt, task_failure,"
			+ " task_failing_since FROM #.workflow_run WHERE namespace = ? AND status = 'RUNNING' AND task_attempt > 0";

	private static final String NODES = "SELECT node_id, node_name, build_id, served_types, task_queues, started_at,"
			+ " last_heartbeat, last_heartbeat > now() - make_interval(secs => ?) AS alive FROM #.node WHERE namespace = ?";

	private final JdbcTemplate jdbc;

	private final String schema;

	public StatsRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * Run counts by type and status; all types when {@code workflowType} is {@code null}.
	 */
	public List<EngineStats.RunCount> counts(String namespace, String workflowType) {
		String sql = COUNTS + ((workflowType != null) ? " AND workflow_type = ?" : "")
				+ " GROUP BY workflow_type, status ORDER BY workflow_type, status";
		return this.jdbc.query(q(sql),
				(rs, n) -> new EngineStats.RunCount(rs.getString("workflow_type"),
						RunStatus.stored(rs.getString("status")).published(), rs.getLong("n")),
				args(namespace, workflowType));
	}

	/**
	 * The backlog at {@code now} (engine clock); a run is stuck when its task has failed
	 * since before {@code stuckBefore}.
	 */
	public EngineStats.Backlog backlog(String namespace, String workflowType, Instant now, Instant stuckBefore) {
		String sql = BACKLOG + ((workflowType != null) ? " AND workflow_type = ?" : "");
		List<Object> args = new ArrayList<>(List.of(Sql.ts(now), Sql.ts(now), Sql.ts(stuckBefore), namespace));
		if (workflowType != null) {
			args.add(workflowType);
		}
		return this.jdbc.queryForObject(q(sql), (rs, n) -> {
			Duration oldest = Duration.ZERO;
			Instant oldestWake = Sql.instant(rs, "oldest_wake");
			if (oldestWake != null && oldestWake.isBefore(now)) {
				oldest = Duration.between(oldestWake, now);
			}
			double inputSeconds = rs.getDouble("oldest_input_seconds");
			if (!rs.wasNull()) {
				Duration input = Duration.ofMillis(Math.max(0, Math.round(inputSeconds * 1000)));
				oldest = (input.compareTo(oldest) > 0) ? input : oldest;
			}
			return new EngineStats.Backlog(rs.getLong("runnable"), oldest, rs.getLong("failing"), rs.getLong("stuck"),
					rs.getLong("paused"));
		}, args.toArray());
	}

	/**
	 * Up to {@code limit} runs whose workflow task is failing, the longest failing first.
	 */
	public List<EngineStats.FailingRun> failing(String namespace, String workflowType, int limit) {
		String sql = FAILING + ((workflowType != null) ? " AND workflow_type = ?" : "")
				+ " ORDER BY task_failing_since NULLS FIRST, task_attempt DESC LIMIT ?";
		List<Object> args = new ArrayList<>(List.of(args(namespace, workflowType)));
		args.add(limit);
		return this.jdbc.query(q(sql),
				(rs, n) -> new EngineStats.FailingRun(rs.getString("workflow_id"), Sql.uuid(rs, "run_id"),
						rs.getString("workflow_type"), rs.getInt("task_attempt"), rs.getString("task_failure"),
						Sql.instant(rs, "task_failing_since")),
				args.toArray());
	}

	/**
	 * The registered nodes of the namespace (those serving the type, when given), oldest
	 * first: nodes of other namespaces sharing the schema are not this namespace's
	 * workers.
	 */
	public List<EngineStats.Node> nodes(String namespace, String workflowType, Duration deadAfter) {
		String sql = NODES + ((workflowType != null) ? " AND ? = ANY(served_types)" : "") + " ORDER BY started_at";
		List<Object> args = new ArrayList<>();
		args.add(deadAfter.toMillis() / 1000.0);
		args.add(namespace);
		if (workflowType != null) {
			args.add(workflowType);
		}
		return this.jdbc.query(q(sql),
				(rs, n) -> new EngineStats.Node(Sql.uuid(rs, "node_id"), rs.getString("node_name"),
						rs.getString("build_id"), WorkflowRegistry.withoutInternal(strings(rs, "served_types")),
						strings(rs, "task_queues"), Sql.instant(rs, "started_at"), Sql.instant(rs, "last_heartbeat"),
						rs.getBoolean("alive")),
				args.toArray());
	}

	private static Object[] args(String namespace, String workflowType) {
		return (workflowType != null) ? new Object[] { namespace, workflowType } : new Object[] { namespace };
	}

	private static Set<String> strings(ResultSet rs, String column) throws SQLException {
		Array array = rs.getArray(column);
		Set<String> values = new LinkedHashSet<>();
		if (array != null) {
			for (Object value : (Object[]) array.getArray()) {
				values.add((String) value);
			}
		}
		return java.util.Collections.unmodifiableSet(values);
	}

}
