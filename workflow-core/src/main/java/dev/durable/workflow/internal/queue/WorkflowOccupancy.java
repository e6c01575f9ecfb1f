package dev.durable.workflow.internal.queue;

import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.store.Sql;

/**
 * Workflow runs admitted from a queue, as holders of its slots: a run holds one from its
 * admission until it closes. The closing commit writes nothing for the queue (one
 * statement per task commit); the rows of runs closed or deleted since go here, at the
 * next round, before the count. Per-node concurrency counts the admitted runs the node
 * owns now: a run evicted from its cache (owner released) counts for no node until a node
 * claims it again, and a dead node's runs count for the node that takes them over, still
 * holding their slots.
 *
 * @param jdbc the engine's template
 * @param schema the schema
 */
public record WorkflowOccupancy(JdbcTemplate jdbc, String schema) implements QueueOccupancy {

	// Sql.open: the primary key finds the run, never the partial index of open runs
	private static final String RELEASE = "DELETE FROM #.queued_run q WHERE q.namespace = ? AND q.queue = ?"
			+ " AND q.state = 'ADMITTED' AND NOT EXISTS (SELECT 1 FROM #.workflow_run r WHERE r.run_id = q.run_id"
			+ " AND " + Sql.open("r") + ")";

	private static final String OCCUPANCY = "SELECT q.partition_key, count(*) AS n,"
			+ " count(*) FILTER (WHERE r.owner_node = ?) AS here FROM #.queued_run q"
			+ " JOIN #.workflow_run r ON r.run_id = q.run_id WHERE q.namespace = ? AND q.queue = ?"
			+ " AND q.state = 'ADMITTED' AND " + Sql.open("r") + " GROUP BY q.partition_key";

	@Override
	public AdmissionPlan.Occupancy occupancy(String namespace, String queue, UUID node) {
		this.jdbc.update(Sql.q(this.schema, RELEASE), namespace, queue);
		return QueueOccupancy.query(this.jdbc, Sql.q(this.schema, OCCUPANCY), node, namespace, queue);
	}

}
