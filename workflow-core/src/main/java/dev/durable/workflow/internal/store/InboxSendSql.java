package dev.durable.workflow.internal.store;

/**
 * The statement that sends one item to a run's inbox, shared by the sends that find the
 * run in different ways: the open run is marked (pending input, inbox counter) and the
 * item inserted only if it was, so a closed run gets nothing; the row is updated (and
 * locked) before the insert. Its parameters: those of the run condition, then kind, name,
 * payload and message id. It returns the run and its owner node, or no row.
 */
final class InboxSendSql {

	/** The order that makes the first run of a workflow id its latest one. */
	static final String LATEST_FIRST = " ORDER BY created_at DESC, run_id DESC";

	private InboxSendSql() {
	}

	/**
	 * @param runCondition the condition on {@code w}, the run row, that finds the run
	 */
	static String statement(String schema, String runCondition) {
		return Sql.q(schema, "WITH u AS (UPDATE #.workflow_run w SET pending_input = true,"
				+ " inbox_seq = w.inbox_seq + 1 WHERE " + runCondition + " AND " + Sql.open("w")
				+ " RETURNING w.run_id, w.owner_node),"
				+ " i AS (INSERT INTO #.inbox (run_id, kind, name, payload, message_id)"
				+ " SELECT run_id, ?::text, ?::text, ?::bytea, ?::text FROM u) SELECT run_id, owner_node FROM u");
	}

}
