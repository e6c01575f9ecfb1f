package dev.durable.workflow.internal.queue;

import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.store.Sql;

/**
 * Activity attempts on the task queue of a queue's name, as holders of its slots: an
 * attempt holds one from its claim (STARTED) until its outcome, also while it awaits
 * asynchronous completion (ASYNC); per node, the attempts the node claimed. The activity
 * claim keeps these states; a dead node's attempts hold their slots until the sweep
 * reschedules them.
 *
 * @param jdbc the engine's template
 * @param schema the schema
 */
public record ActivityOccupancy(JdbcTemplate jdbc, String schema) implements QueueOccupancy {

	private static final String OCCUPANCY = "SELECT partition_key, count(*) AS n,"
			+ " count(*) FILTER (WHERE claimed_by = ?) AS here FROM #.activity WHERE namespace = ? AND task_queue = ?"
			+ " AND state IN ('STARTED', 'ASYNC') GROUP BY partition_key";

	@Override
	public AdmissionPlan.Occupancy occupancy(String namespace, String queue, UUID node) {
		return QueueOccupancy.query(this.jdbc, Sql.q(this.schema, OCCUPANCY), node, namespace, queue);
	}

}
