package dev.durable.workflow.internal.store;

import java.time.Instant;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Retention: deletes runs closed before a cutoff, with everything that hangs off them, in
 * small batches. Deduplication records of a workflow id go only once no run of that
 * workflow id is open or closed after the cutoff, so a retried signal or update id stays
 * deduplicated while the workflow id is in use. Children of a deleted parent are not
 * touched: only the rows of the deleted runs themselves go.
 */
public final class RetentionRepository {

	/**
	 * One batch: the closed runs of a namespace (oldest first, skipping rows another node
	 * is deleting or a transaction holds), their side rows, then the deduplication
	 * records of their workflow ids that no open or recent run still needs.
	 * Data-modifying CTEs all run, whether read or not. The oldest closed runs are found
	 * through the visibility row's close time (index {@code visibility_closed}:
	 * namespace, close time), written in the commit that sets the run row's
	 * {@code closed_at} to the same instant, so the hot run row needs no index of its own
	 * for this; the run row is locked and its status checked as before.
	 */
	private static final String DELETE_BATCH = "WITH doomed AS (SELECT r.run_id, r.namespace, r.workflow_id"
			+ " FROM #.visibility v JOIN #.workflow_run r ON r.run_id = v.run_id"
			+ " WHERE v.namespace = ? AND v.close_time IS NOT NULL AND v.close_time < ? AND r.status <> 'RUNNING'"
			+ " ORDER BY v.close_time LIMIT ? FOR UPDATE OF r SKIP LOCKED),"
			+ " h AS (DELETE FROM #.history WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " p AS (DELETE FROM #.run_payload WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " v AS (DELETE FROM #.visibility WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " i AS (DELETE FROM #.inbox WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " t AS (DELETE FROM #.timer WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " a AS (DELETE FROM #.activity WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " ac AS (DELETE FROM #.activity_control WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " q AS (DELETE FROM #.queued_run WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " oe AS (DELETE FROM #.workflow_event WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " os AS (DELETE FROM #.workflow_stream WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " ew AS (DELETE FROM #.event_wait WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " ed AS (DELETE FROM #.event_delivery WHERE run_id IN (SELECT run_id FROM doomed)),"
			+ " d AS (DELETE FROM #.dedup x USING (SELECT DISTINCT namespace, workflow_id FROM doomed) w"
			+ " WHERE x.namespace = w.namespace AND x.workflow_id = w.workflow_id"
			+ " AND NOT EXISTS (SELECT 1 FROM #.workflow_run r WHERE r.namespace = w.namespace"
			+ " AND r.workflow_id = w.workflow_id AND (r.status = 'RUNNING' OR r.closed_at >= ?))),"
			+ " r AS (DELETE FROM #.workflow_run WHERE run_id IN (SELECT run_id FROM doomed) RETURNING 1)"
			+ " SELECT count(*) FROM r";

	/**
	 * Inbox items whose run is gone: a child that outlived its deleted parent still
	 * reports its close to the parent's inbox. A run and the first inbox items for it
	 * commit together, so a visible item without a visible run is an orphan.
	 */
	private static final String DELETE_ORPHANED_INBOX = "DELETE FROM #.inbox WHERE id IN (SELECT i.id FROM #.inbox i"
			+ " WHERE NOT EXISTS (SELECT 1 FROM #.workflow_run r WHERE r.run_id = i.run_id) LIMIT ?)";

	/**
	 * Topic events dispatched before the cutoff that no staged delivery or trigger action
	 * still reads.
	 */
	private static final String DELETE_OLD_EVENTS = "DELETE FROM #.topic_event WHERE (namespace, topic, event_id) IN"
			+ " (SELECT e.namespace, e.topic, e.event_id FROM #.topic_event e WHERE e.namespace = ?"
			+ " AND e.dispatched_at < ? AND NOT EXISTS (SELECT 1 FROM #.event_delivery d"
			+ " WHERE d.namespace = e.namespace AND d.topic = e.topic AND d.event_id = e.event_id)"
			+ " AND NOT EXISTS (SELECT 1 FROM #.event_action a WHERE a.namespace = e.namespace"
			+ " AND a.topic = e.topic AND a.event_id = e.event_id) LIMIT ?)";

	private final JdbcTemplate jdbc;

	private final String schema;

	public RetentionRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * Deletes up to {@code limit} runs of the namespace closed before the cutoff, with
	 * their history, payloads, visibility, inbox, timer, activity and queue rows, and the
	 * deduplication records of workflow ids left without an open or recent run. Other
	 * namespaces sharing the schema keep their runs for their own retention.
	 * @param closedBefore the cutoff, from the engine's clock
	 * @return how many runs were deleted
	 */
	public int deleteClosedBefore(String namespace, Instant closedBefore, int limit) {
		Integer deleted = this.jdbc.queryForObject(q(DELETE_BATCH), Integer.class, namespace, Sql.ts(closedBefore),
				limit, Sql.ts(closedBefore));
		return (deleted != null) ? deleted : 0;
	}

	/**
	 * The batch statement as issued (arguments: namespace, cutoff, limit, cutoff);
	 * package-private for plan tests.
	 */
	String deleteBatchStatement() {
		return q(DELETE_BATCH);
	}

	/**
	 * Deletes up to {@code limit} inbox items whose run no longer exists. @return how
	 * many
	 */
	public int deleteOrphanedInbox(int limit) {
		return this.jdbc.update(q(DELETE_ORPHANED_INBOX), limit);
	}

	/**
	 * Deletes up to {@code limit} topic events of the namespace dispatched before the
	 * cutoff (a repeat of such an event's id is then a new event). @return how many
	 */
	public int deleteEventsDispatchedBefore(String namespace, Instant dispatchedBefore, int limit) {
		return this.jdbc.update(q(DELETE_OLD_EVENTS), namespace, Sql.ts(dispatchedBefore), limit);
	}

}
