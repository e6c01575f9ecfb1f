package dev.durable.workflow.internal.queue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.internal.store.Sql;

/**
 * The passes of a fair queue's keys (stride scheduling), advanced by each round that
 * admits from it, inside the round's transaction (the queue's row locked). A key's items
 * rank at {@code greatest(pass, virtual time) + place / weight} ({@link FairOrder}), so
 * the keys take turns across rounds too, not only inside one: with one slot, a key that
 * came later is served between the items of one that came first. Items without a key are
 * the key {@code ""}.
 */
final class FairPasses {

	private final JdbcTemplate jdbc;

	private final String virtualTime;

	private final String passes;

	private final String upsert;

	private final String advance;

	private final String prune;

	FairPasses(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.virtualTime = Sql.q(schema, "SELECT virtual_time FROM #.queue WHERE namespace = ? AND name = ?");
		this.passes = Sql.q(schema, "SELECT partition_key, pass FROM #.queue_key_pass WHERE namespace = ?"
				+ " AND queue = ? AND partition_key = ANY(?)");
		this.upsert = Sql.q(schema, "INSERT INTO #.queue_key_pass (namespace, queue, partition_key, pass)"
				+ " VALUES (?, ?, ?, ?) ON CONFLICT (namespace, queue, partition_key) DO UPDATE SET pass = EXCLUDED.pass");
		this.advance = Sql.q(schema, "UPDATE #.queue SET virtual_time = ? WHERE namespace = ? AND name = ?");
		this.prune = Sql.q(schema, "DELETE FROM #.queue_key_pass WHERE namespace = ? AND queue = ? AND pass <= ?");
	}

	/** Advances the passes of the keys of the admitted items, and the virtual time. */
	void admitted(String namespace, QueueDefinition queue, List<? extends AdmissionPlan.Candidate<?>> admitted) {
		Map<String, Integer> counts = new LinkedHashMap<>();
		for (AdmissionPlan.Candidate<?> item : admitted) {
			counts.merge(key(item.partitionKey()), 1, Integer::sum);
		}
		Double stored = this.jdbc.queryForObject(this.virtualTime, Double.class, namespace, queue.name());
		double virtual = (stored != null) ? stored : 0;
		Map<String, Double> passes = new HashMap<>();
		this.jdbc.query(this.passes, (rs) -> {
			passes.put(rs.getString(1), rs.getDouble(2));
		}, namespace, queue.name(), counts.keySet().toArray(String[]::new));
		double next = virtual;
		for (Map.Entry<String, Integer> count : counts.entrySet()) {
			double weight = queue.partitionWeights().getOrDefault(count.getKey(), 1);
			double start = Math.max(passes.getOrDefault(count.getKey(), 0.0), virtual);
			this.jdbc.update(this.upsert, namespace, queue.name(), count.getKey(), start + count.getValue() / weight);
			// the start of the last item served of the key
			next = Math.max(next, start + (count.getValue() - 1) / weight);
		}
		this.jdbc.update(this.advance, next, namespace, queue.name());
		this.jdbc.update(this.prune, namespace, queue.name(), next);
	}

	private static String key(String partitionKey) {
		return (partitionKey != null) ? partitionKey : "";
	}

}
