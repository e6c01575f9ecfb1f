package dev.durable.workflow.internal.queue;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.engine.ExcessStrategy;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.QueueInfo;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.Sql;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * The rows of flow-control queues outside the admission rounds: the definitions the nodes
 * declare, the entry of a started run, and the reads behind
 * {@code WorkflowEngine.queues()}.
 */
public final class QueueRepository {

	private static final String DECLARE = "INSERT INTO #.queue (namespace, name, concurrency, per_node_concurrency,"
			+ " rate_limit, rate_period_ms, partition_concurrency, fair, partition_weights, partition_excess,"
			+ " rate_excess, admission_timeout_ms, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)"
			+ " ON CONFLICT (namespace, name) DO UPDATE SET concurrency = EXCLUDED.concurrency,"
			+ " per_node_concurrency = EXCLUDED.per_node_concurrency, rate_limit = EXCLUDED.rate_limit,"
			+ " rate_period_ms = EXCLUDED.rate_period_ms, partition_concurrency = EXCLUDED.partition_concurrency,"
			+ " fair = EXCLUDED.fair, partition_weights = EXCLUDED.partition_weights,"
			+ " partition_excess = EXCLUDED.partition_excess, rate_excess = EXCLUDED.rate_excess,"
			+ " admission_timeout_ms = EXCLUDED.admission_timeout_ms, updated_at = EXCLUDED.updated_at";

	/** The columns of a queue's definition, as {@link #definition} reads them. */
	static final String COLUMNS = "name, concurrency, per_node_concurrency, rate_limit, rate_period_ms,"
			+ " partition_concurrency, fair, partition_weights::text AS partition_weights, partition_excess,"
			+ " rate_excess, admission_timeout_ms";

	private static final String ENQUEUE = "INSERT INTO #.queued_run (run_id, namespace, queue, workflow_type,"
			+ " task_queue, priority, partition_key, enqueued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

	/**
	 * Per declared queue: its waiting and running runs (open ones only: the rows of
	 * closed runs wait for the next round to go) and the oldest due wait.
	 */
	private static final String INFOS = "SELECT d.name, d.concurrency, d.per_node_concurrency, d.rate_limit,"
			+ " d.rate_period_ms, d.partition_concurrency, d.fair, d.partition_weights::text AS partition_weights,"
			+ " d.partition_excess, d.rate_excess, d.admission_timeout_ms,"
			+ " count(r.run_id) FILTER (WHERE q.state = 'WAITING') AS waiting,"
			+ " count(r.run_id) FILTER (WHERE q.state = 'ADMITTED') AS running,"
			+ " min(q.enqueued_at) FILTER (WHERE q.state = 'WAITING' AND r.run_id IS NOT NULL AND q.enqueued_at <= ?)"
			+ " AS oldest FROM #.queue d LEFT JOIN #.queued_run q ON q.namespace = d.namespace AND q.queue = d.name"
			+ " LEFT JOIN #.workflow_run r ON r.run_id = q.run_id AND " + Sql.open("r")
			+ " WHERE d.namespace = ? GROUP BY d.namespace, d.name ORDER BY d.name";

	/**
	 * Activity attempts on the task queues of a namespace: SCHEDULED and due waits,
	 * STARTED or ASYNC runs.
	 */
	private static final String ACTIVITY_COUNTS = "SELECT task_queue,"
			+ " count(*) FILTER (WHERE state = 'SCHEDULED' AND next_attempt_at <= ?) AS waiting,"
			+ " count(*) FILTER (WHERE state IN ('STARTED', 'ASYNC')) AS running,"
			+ " min(next_attempt_at) FILTER (WHERE state = 'SCHEDULED' AND next_attempt_at <= ?) AS oldest"
			+ " FROM #.activity WHERE namespace = ? AND task_queue IS NOT NULL GROUP BY task_queue";

	private final JdbcTemplate jdbc;

	private final String schema;

	public QueueRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * Writes the node's queue definitions (last writer wins: declare the same limits on
	 * every node).
	 */
	public void declare(String namespace, List<QueueDefinition> queues, Instant now) {
		if (queues.isEmpty()) {
			return;
		}
		this.jdbc.batchUpdate(q(DECLARE),
				queues.stream()
					.map((d) -> new Object[] { namespace, d.name(), d.concurrency(), d.perNodeConcurrency(),
							d.rateLimit(), d.ratePeriod().toMillis(), d.partitionConcurrency(), d.fair(),
							new String(InternalJson.write(d.partitionWeights()), StandardCharsets.UTF_8),
							d.partitionExcess().name(), d.rateExcess().name(),
							(d.admissionTimeout() != null) ? d.admissionTimeout().toMillis() : null, Sql.ts(now) })
					.toList());
	}

	/** The decision of a start beyond the queue's limits, on these rows. */
	public StartExcess excess() {
		return new StartExcess(this.jdbc, this.schema);
	}

	/** The definition of a declared queue, or {@code null} when no node declared it. */
	public @Nullable QueueDefinition definition(String namespace, String queue) {
		return this.jdbc
			.query(q("SELECT " + COLUMNS + " FROM #.queue WHERE namespace = ? AND name = ?"), (rs, n) -> definition(rs),
					namespace, queue)
			.stream()
			.findFirst()
			.orElse(null);
	}

	/** The names of the queues declared in the namespace. */
	public List<String> names(String namespace) {
		return this.jdbc.queryForList(q("SELECT name FROM #.queue WHERE namespace = ? ORDER BY name"), String.class,
				namespace);
	}

	/**
	 * Fails unless some node declared the queue: a start into it would wait for ever.
	 * @throws IllegalArgumentException when the name is not a queue name or no node
	 * declared it
	 */
	public void checkDeclared(String namespace, String queue) {
		if (!QueueDefinition.isValidName(queue)) {
			throw new IllegalArgumentException("'" + queue + "' is not a queue name: 1-100 letters, digits and ._:-");
		}
		List<Integer> found = this.jdbc.query(q("SELECT 1 FROM #.queue WHERE namespace = ? AND name = ?"), (rs, n) -> 1,
				namespace, queue);
		if (found.isEmpty()) {
			throw new IllegalArgumentException("No node declared the queue '" + queue + "' in namespace '" + namespace
					+ "': declare it with WorkflowEngine.builder().queue(QueueDefinition.named(\"" + queue
					+ "\")...) on the nodes that run its workflows");
		}
	}

	/**
	 * Puts a run just inserted (in the same transaction) into the queue, waiting.
	 * @param since when it starts waiting (engine clock): its start, or its delayed start
	 */
	public void enqueue(NewRun run, String queue, int priority, @Nullable String partitionKey, Instant since) {
		this.jdbc.update(q(ENQUEUE), run.runId(), run.namespace(), queue, run.workflowType(), run.taskQueue(), priority,
				partitionKey, Sql.ts(since));
	}

	/**
	 * Every queue declared in the namespace with its workflow counts; the activity counts
	 * are added by {@link #withActivities}.
	 * @param now the engine clock's time (a delayed start waits from its start time on)
	 */
	public List<QueueInfo> queues(String namespace, Instant now) {
		return this.jdbc.query(q(INFOS), (rs, n) -> new QueueInfo(definition(rs), rs.getLong("waiting"),
				rs.getLong("running"), 0, 0, instant(rs.getTimestamp("oldest"))), Sql.ts(now), namespace);
	}

	/**
	 * The attempts of activities on a task queue, by task queue name.
	 *
	 * @param waiting due and not claimed (SCHEDULED)
	 * @param running claimed by a node or awaiting asynchronous completion (STARTED,
	 * ASYNC)
	 * @param oldestWaitingSince when the longest-waiting one became due, or {@code null}
	 */
	public record ActivityCounts(long waiting, long running, @Nullable Instant oldestWaitingSince) {
	}

	/**
	 * The extension point of task-queue activities in the queue reads: what waits and
	 * runs on each task queue of the namespace that has activity rows, by task queue
	 * name.
	 */
	public Map<String, ActivityCounts> activityCounts(String namespace, Instant now) {
		Map<String, ActivityCounts> counts = new LinkedHashMap<>();
		this.jdbc.query(q(ACTIVITY_COUNTS), (rs) -> {
			counts.put(rs.getString("task_queue"), new ActivityCounts(rs.getLong("waiting"), rs.getLong("running"),
					instant(rs.getTimestamp("oldest"))));
		}, Sql.ts(now), Sql.ts(now), namespace);
		return counts;
	}

	/**
	 * The declared queues with the activity counts of the task queues of their names, and
	 * the task queues with activities that no node declared as a queue (shown without
	 * limits).
	 */
	public static List<QueueInfo> withActivities(List<QueueInfo> queues, Map<String, ActivityCounts> activities) {
		List<QueueInfo> all = new ArrayList<>();
		Map<String, ActivityCounts> left = new LinkedHashMap<>(activities);
		for (QueueInfo queue : queues) {
			ActivityCounts counts = left.remove(queue.definition().name());
			all.add((counts == null) ? queue
					: new QueueInfo(queue.definition(), queue.waitingWorkflows(), queue.runningWorkflows(),
							counts.waiting(), counts.running(),
							earliest(queue.oldestWaitingSince(), counts.oldestWaitingSince())));
		}
		left.forEach((name, counts) -> {
			if ((counts.waiting() > 0 || counts.running() > 0) && QueueDefinition.isValidName(name)) {
				all.add(new QueueInfo(QueueDefinition.named(name), 0, 0, counts.waiting(), counts.running(),
						counts.oldestWaitingSince()));
			}
		});
		return all;
	}

	private static @Nullable Instant earliest(@Nullable Instant a, @Nullable Instant b) {
		return (a == null) ? b : (b == null || a.isBefore(b)) ? a : b;
	}

	static QueueDefinition definition(ResultSet rs) throws SQLException {
		long timeout = rs.getLong("admission_timeout_ms");
		Duration admissionTimeout = rs.wasNull() ? null : Duration.ofMillis(timeout);
		return new QueueDefinition(rs.getString("name"), rs.getInt("concurrency"), rs.getInt("per_node_concurrency"),
				rs.getInt("rate_limit"), Duration.ofMillis(rs.getLong("rate_period_ms")),
				rs.getInt("partition_concurrency"), rs.getBoolean("fair"), weights(rs.getString("partition_weights")),
				ExcessStrategy.valueOf(rs.getString("partition_excess")),
				ExcessStrategy.valueOf(rs.getString("rate_excess")), admissionTimeout);
	}

	private static Map<String, Integer> weights(@Nullable String json) {
		Map<String, Integer> weights = new LinkedHashMap<>();
		if (json != null) {
			InternalJson.read(json.getBytes(StandardCharsets.UTF_8), Map.class)
				.forEach((key, weight) -> weights.put((String) key, ((Number) weight).intValue()));
		}
		return weights;
	}

	static @Nullable Instant instant(@Nullable Timestamp timestamp) {
		return (timestamp != null) ? timestamp.toInstant() : null;
	}

}
