package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Which node owns an open run: claims of runs whose owner is gone, the owned runs with
 * work, the releases, and the writes fenced by the owner and epoch (pending-input clears,
 * task failures).
 */
public final class RunOwnership {

	private final JdbcTemplate jdbc;

	private final String schema;

	public RunOwnership(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * A run claimed by this node.
	 *
	 * @param runId run id
	 * @param epoch the new epoch
	 */
	public record Claimed(UUID runId, long epoch) {
	}

	/**
	 * The {@code task_attempt} of a run started into a flow-control queue and not yet
	 * admitted. Every arm of {@link #HAS_WORK} that reads input asks for
	 * {@code task_attempt = 0} and the run has no wake time, so no claim, poll, backlog
	 * or quiescence count takes the run, even when a signal or cancel marks it with
	 * pending input; its admission sets it to 0.
	 */
	public static final int WAITING_IN_QUEUE = -1;

	/**
	 * An open run {@code r} has work: input (the pending-input flag, or items in its
	 * inbox, which other runs add without touching its row) or activities, unless its
	 * task is failing and waits for its retry, or a due wake time (one parameter: now); a
	 * paused run has none, whatever it holds. Each arm is one index (the partial
	 * pending-input-or-activities index, the wake-time index, the primary key for the
	 * runs the inbox names), so the polls read the runs with work, however many runs are
	 * parked. A run waiting in a queue ({@link #WAITING_IN_QUEUE}) has none.
	 */
	private static final String HAS_WORK = "(r.paused_at IS NULL AND ((r.task_attempt = 0 AND (r.pending_input"
			+ " OR r.has_activities)) OR r.next_wake_at <= ? OR (r.task_attempt = 0 AND r.run_id = ANY (ARRAY("
			+ "SELECT DISTINCT i.run_id FROM #.inbox i)))))";

	/**
	 * Claims runnable runs of the namespace whose owner is gone (never this node's own:
	 * those it picks up through {@link #ownedRunnable}): runs with pending input, a due
	 * wake time or activities to recover, of types and queues this node serves. Bumps
	 * each run's epoch. Runs are unique per namespace and nodes of several namespaces may
	 * share the schema and serve types and queues of the same names: a run is taken over
	 * only by a node of its own namespace, and only that namespace's nodes tell whether a
	 * type is served by name.
	 */
	public List<Claimed> claim(UUID node, String namespace, String[] types, String[] queues, Instant now,
			long deadAfterMillis, int limit, BuildRoute route) {
		return this.jdbc.query(
				q("WITH c AS (SELECT r.run_id FROM #.workflow_run r WHERE r.namespace = ?" + " AND r.status = 'RUNNING'"
				// a node with a dynamic workflow ('*') also takes the types no live node
				// serves by name
						+ " AND (r.workflow_type = ANY(?) OR ('*' = ANY(?) AND NOT EXISTS (SELECT 1 FROM #.node d"
						+ " WHERE d.namespace = r.namespace AND r.workflow_type = ANY(d.served_types)"
						+ " AND d.last_heartbeat > now() - make_interval(secs => ?))))"
						+ " AND r.task_queue = ANY(?) AND " + HAS_WORK + " AND r.owner_node IS DISTINCT FROM ?"
						// only runs of this node's build; a live owner of another build
						// gives up a run routed here
						+ " AND " + BuildRoute.routed("r")
						+ " AND (r.owner_node IS NULL OR NOT EXISTS (SELECT 1 FROM #.node n WHERE n.node_id = r.owner_node"
						+ " AND n.last_heartbeat > now() - make_interval(secs => ?)) OR "
						+ BuildRoute.ownedByOtherBuild("r") + ")"
						+ " ORDER BY r.next_wake_at NULLS FIRST LIMIT ? FOR UPDATE OF r SKIP LOCKED)"
						// by primary key: a join with c may be planned as a scan of every
						// run
						+ " UPDATE #.workflow_run w SET owner_node = ?, epoch = w.epoch + 1"
						+ " WHERE w.run_id = ANY (ARRAY(SELECT run_id FROM c))" + " RETURNING w.run_id, w.epoch"),
				(org.springframework.jdbc.core.PreparedStatementSetter) (ps) -> {
					ps.setString(1, namespace);
					ps.setArray(2, ps.getConnection().createArrayOf("text", types));
					ps.setArray(3, ps.getConnection().createArrayOf("text", types));
					ps.setDouble(4, deadAfterMillis / 1000.0);
					ps.setArray(5, ps.getConnection().createArrayOf("text", queues));
					ps.setTimestamp(6, Sql.ts(now));
					ps.setObject(7, node);
					int i = route.bind(ps, 8);
					ps.setDouble(i++, deadAfterMillis / 1000.0);
					ps.setString(i++, route.buildId());
					ps.setInt(i++, limit);
					ps.setObject(i, node);
				}, (rs, n) -> new Claimed(Sql.uuid(rs, "run_id"), rs.getLong("epoch")));
	}

	/**
	 * An owned run with work.
	 *
	 * @param runId run id
	 * @param epoch epoch
	 * @param due whether it has pending input or a due wake time (else only activities)
	 */
	public record Owned(UUID runId, long epoch, boolean due) {
	}

	/**
	 * Runs this node owns that have input, a due wake time or activities: the fallback
	 * for lost wake-ups. The node owns runs of its namespace only; the namespace leads
	 * the indexes of runs with work.
	 */
	public List<Owned> ownedRunnable(UUID node, String namespace, Instant now, BuildRoute route) {
		// a run whose task is failing waits for its retry time, whatever input arrives
		return this.jdbc.query(q("SELECT run_id, epoch, ((task_attempt = 0 AND (pending_input"
				+ " OR EXISTS (SELECT 1 FROM #.inbox i WHERE i.run_id = r.run_id))) OR next_wake_at <= ?) AS due"
				+ " FROM #.workflow_run r WHERE r.namespace = ? AND r.owner_node = ? AND r.status = 'RUNNING' AND "
				// a run no longer routed here waits for a node of its build to take it
				+ HAS_WORK + " AND " + BuildRoute.routed("r")),
				(rs, n) -> new Owned(Sql.uuid(rs, "run_id"), rs.getLong("epoch"), rs.getBoolean("due")),
				params(new Object[] { Sql.ts(now), namespace, node, Sql.ts(now) }, route.parameters()));
	}

	private static Object[] params(Object[] first, Object[] then) {
		Object[] all = java.util.Arrays.copyOf(first, first.length + then.length);
		System.arraycopy(then, 0, all, first.length, then.length);
		return all;
	}

	/**
	 * Clears the pending-input flag when a task found nothing new, unless input arrived
	 * since.
	 */
	public void clearPendingInput(UUID runId, UUID node, long epoch, long seenInboxSeq) {
		this.jdbc.update(q("UPDATE #.workflow_run SET pending_input = false WHERE run_id = ? AND owner_node = ?"
				+ " AND epoch = ? AND inbox_seq = ? AND pending_input"), runId, node, epoch, seenInboxSeq);
	}

	/**
	 * Gives up ownership of runs (cache eviction, shutdown) in one statement, each fenced
	 * by its epoch: the i-th run id with the i-th epoch. Found by primary key
	 * ({@code = ANY}), so the plan stays a lookup per run whatever the statistics say.
	 */
	public void release(UUID node, UUID[] runIds, Long[] epochs) {
		this.jdbc.update(
				q("UPDATE #.workflow_run SET owner_node = NULL WHERE run_id = ANY (?) AND owner_node = ?"
						+ " AND epoch = (?::bigint[])[array_position(?::uuid[], run_id)]"),
				(org.springframework.jdbc.core.PreparedStatementSetter) (ps) -> {
					java.sql.Array ids = ps.getConnection().createArrayOf("uuid", runIds);
					ps.setArray(1, ids);
					ps.setObject(2, node);
					ps.setArray(3, ps.getConnection().createArrayOf("bigint", epochs));
					ps.setArray(4, ids);
				});
	}

	/**
	 * Gives up every open run this node owns (shutdown). Closed runs keep the owner that
	 * closed them: rewriting them would cost a write per run the node ever closed.
	 */
	public int releaseAll(UUID node) {
		return this.jdbc.update(
				q("UPDATE #.workflow_run SET owner_node = NULL WHERE owner_node = ?" + " AND status = 'RUNNING'"),
				node);
	}

	/**
	 * Records a failed workflow task: the run stays open, visible with the reason, and
	 * retries later. The first failure of a streak records when the streak began.
	 */
	public boolean recordTaskFailure(UUID runId, UUID node, long epoch, String failure, Instant now, Instant retryAt) {
		return this.jdbc.update(
				q("UPDATE #.workflow_run SET task_attempt = task_attempt + 1, task_failure = ?,"
						+ " task_failing_since = CASE WHEN task_attempt = 0 THEN ? ELSE task_failing_since END,"
						+ " next_wake_at = ? WHERE run_id = ? AND owner_node = ? AND epoch = ? AND " + Sql.OPEN),
				failure, Sql.ts(now), Sql.ts(retryAt), runId, node, epoch) == 1;
	}

}
