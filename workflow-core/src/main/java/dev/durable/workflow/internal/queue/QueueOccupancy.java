package dev.durable.workflow.internal.queue;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One kind of item that holds the slots of a queue (workflow runs admitted from it,
 * activity attempts claimed from the task queue of its name). {@link QueueAdmission} adds
 * up every kind it knows, so the kinds share the queue's limits.
 */
public interface QueueOccupancy {

	/**
	 * What of this kind holds slots of the queue now. Called by {@link QueueAdmission}
	 * inside the admission's transaction, with the queue's row locked: nothing of the
	 * queue is admitted meanwhile. May delete what no longer holds a slot (closed runs).
	 * @param node the admitting node, whose items
	 * {@link AdmissionPlan.Occupancy#runningOnNode} counts
	 */
	AdmissionPlan.Occupancy occupancy(String namespace, String queue, UUID node);

	/**
	 * Reads an occupancy from a statement that returns, per partition key
	 * ({@code partition_key}, null for items without one), the items holding slots
	 * ({@code n}) and those of the admitting node ({@code here}).
	 */
	static AdmissionPlan.Occupancy query(JdbcTemplate jdbc, String sql, Object... parameters) {
		long[] totals = new long[2];
		Map<String, Long> partitions = new HashMap<>();
		jdbc.query(sql, (rs) -> {
			long count = rs.getLong("n");
			totals[0] += count;
			totals[1] += rs.getLong("here");
			String partition = rs.getString("partition_key");
			if (partition != null) {
				partitions.put(partition, count);
			}
		}, parameters);
		return new AdmissionPlan.Occupancy(totals[0], totals[1], partitions);
	}

}
