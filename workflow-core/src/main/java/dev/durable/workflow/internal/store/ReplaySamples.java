package dev.durable.workflow.internal.store;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The runs a replay check replays, per workflow type: the most recently started open
 * runs, then, when asked for, the most recently started closed ones the retention keeps.
 * Both read the visibility index by type and start time ({@code visibility_by_type}),
 * newest first, so a sample costs its size whatever the number of runs.
 */
public final class ReplaySamples {

	private final JdbcTemplate jdbc;

	private final String schema;

	public ReplaySamples(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = Sql.checkIdentifier(schema);
	}

	/**
	 * A run to replay.
	 *
	 * @param runId the run id
	 * @param workflowId the workflow id
	 */
	public record SampledRun(UUID runId, String workflowId) {
	}

	/**
	 * Up to {@code size} runs of the type: open ones first, then closed ones unless
	 * {@code openOnly}.
	 */
	public List<SampledRun> sample(String namespace, String workflowType, int size, boolean openOnly) {
		List<SampledRun> runs = new ArrayList<>(select(namespace, workflowType, "= 'RUNNING'", size));
		if (!openOnly && runs.size() < size) {
			runs.addAll(select(namespace, workflowType, "<> 'RUNNING'", size - runs.size()));
		}
		return runs;
	}

	private List<SampledRun> select(String namespace, String workflowType, String status, int limit) {
		return this.jdbc.query(
				Sql.q(this.schema,
						"SELECT run_id, workflow_id FROM #.visibility WHERE namespace = ? AND workflow_type = ?"
								+ " AND status " + status + " ORDER BY start_time DESC, run_id DESC LIMIT ?"),
				(rs, n) -> new SampledRun(Sql.uuid(rs, "run_id"), rs.getString("workflow_id")), namespace, workflowType,
				limit);
	}

}
