package dev.durable.benchmarks;

import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.engine.WorkflowEngine;

/**
 * The engine nodes of the signal-latency benchmark, each with where it keeps its runs.
 */
final class SignalNodes {

	private final SignalLatencyReport report;

	private final Map<WorkflowEngine, NodeDatabase> databases = new IdentityHashMap<>();

	SignalNodes(SignalLatencyReport report) {
		this.report = report;
	}

	/**
	 * Checks the run is owned by the node that started it, so the variants measure the
	 * path they name. Reads the owner column of the engine's run table (no compatibility
	 * promise).
	 */
	void checkOwner(String name, WorkflowEngine owner, UUID runId) {
		NodeDatabase where = this.databases.get(owner);
		UUID actual = where.jdbc()
			.query("SELECT owner_node FROM " + where.schema() + ".workflow_run WHERE run_id = ?",
					(rs) -> rs.next() ? rs.getObject(1, UUID.class) : null, runId);
		if (!owner.nodeId().equals(actual)) {
			this.report
				.problem(name + ": the run is owned by " + actual + ", not by the starting node " + owner.nodeId());
		}
	}

	WorkflowEngine engine(HikariDataSource pool, String schema) {
		WorkflowEngine engine = WorkflowEngine.builder()
			.dataSource(pool)
			.schema(schema)
			.register(SignalSinkWorkflow.class)
			.shutdownTimeout(Duration.ofSeconds(5))
			.build()
			.start();
		this.databases.put(engine, new NodeDatabase(new JdbcTemplate(pool), schema));
		return engine;
	}

	/** Where a node of the benchmark keeps its runs. */
	private record NodeDatabase(JdbcTemplate jdbc, String schema) {
	}

}
