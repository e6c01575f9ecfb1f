package dev.durable.workflow.internal.queue;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The order of fair admission, in SQL, for any source of candidates: within a priority,
 * round-robin across partition keys, within a round and across rounds. Each key's
 * candidates are numbered in the source's own order ({@code row_number() OVER (PARTITION
 * BY partition_key, priority ...)}); the number divided by the key's weight, after the
 * key's pass or the queue's virtual time ({@link FairPasses}), is its turn, and
 * candidates are taken turn by turn (a key of weight 3 has three in each turn, a key of
 * weight 1 one), the earliest first within a turn. The database ranks the waiting rows
 * (read per key in order from the source's index), so no round reads more than a page of
 * them into the engine. Rows without a key are one key.
 */
public final class FairOrder {

	private FairOrder() {
	}

	/**
	 * The fair query over a source's candidates.
	 * @param base the source's candidates (its filters, no order or limit), with the
	 * columns {@code priority}, {@code partition_key} and the order columns
	 * @param order the source's order within a key and priority: arrival, then what makes
	 * it unique (column names of {@code base})
	 * @param after whether the page continues after a cursor
	 * @return a query whose parameters are those of {@code base}, then the weights (a
	 * JSON object of key to weight), the namespace and the queue, then, when
	 * {@code after}, the cursor's priority twice, its turn and order columns, then the
	 * page size; it returns {@code base}'s columns and {@code turn}
	 */
	public static String query(String base, List<String> order, boolean after) {
		String within = order.stream().map((column) -> "c." + column).collect(Collectors.joining(", "));
		String outer = order.stream().map((column) -> "f." + column).collect(Collectors.joining(", "));
		String marks = order.stream().map((column) -> "?").collect(Collectors.joining(", "));
		return "SELECT * FROM (SELECT c.*, greatest(coalesce(p.pass, 0), w.vt) + (row_number() OVER (PARTITION BY"
				+ " c.partition_key, c.priority ORDER BY " + within
				+ "))::float8 / coalesce((w.weights ->> c.partition_key)::int, 1) AS turn FROM (" + base
				+ ") c CROSS JOIN (SELECT ?::jsonb AS weights, q.virtual_time AS vt, q.namespace AS ns, q.name AS qn"
				+ " FROM #.queue q WHERE q.namespace = ? AND q.name = ?) w LEFT JOIN #.queue_key_pass p"
				+ " ON p.namespace = w.ns AND p.queue = w.qn AND p.partition_key = coalesce(c.partition_key, '')) f"
				+ (after ? " WHERE (f.priority < ? OR (f.priority = ? AND (f.turn, " + outer + ") > (?, " + marks
						+ ")))" : "")
				+ " ORDER BY f.priority DESC, f.turn, " + outer + " LIMIT ?";
	}

}
