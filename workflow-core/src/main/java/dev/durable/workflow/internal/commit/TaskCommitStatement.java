package dev.durable.workflow.internal.commit;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.store.Sql;
import dev.durable.workflow.internal.versioning.BuildRouter;

/**
 * The common workflow task commit as one SQL statement: the compare-and-set on the run
 * row, and, only when it matched, the history row, the consumed inbox items, removed
 * timers and activity rows, the new timers and, for a closing task, the outcome and what
 * the close tells the parent and the children (no part for them when the run has no
 * parent and started no child). One statement is atomic on its own, so it needs no
 * transaction block: one round trip, one WAL flush.
 *
 * <p>
 * Every data-modifying part is a CTE that reads the row the compare-and-set returned, so
 * nothing is written when it did not match. A statement is built per shape (which parts
 * the commit has) and kept, so each connection prepares a handful of them once.
 *
 * <p>
 * Two variants: a plain start inserts the run row already in the state its first task
 * leaves it in, with that task's rows, instead of the compare-and-set
 * ({@code INSERT ... ON CONFLICT DO
 * NOTHING} on the open-id index, or, when that task closes the run, an insert of the
 * closed run unless an open run holds its id); and a pipelined form without result rows
 * (any commit but a close that tells a parent or children), whose last part is the
 * history insert, so that the group commit ({@link TaskWriter}) sends many commits of one
 * shape in one JDBC batch.
 *
 * <p>
 * Commits that start children, signal other workflows, decide updates, change memo or
 * search attributes, set events, write streams or start a next run take the
 * multi-statement path ({@link TaskCommitRepository#commit}).
 */
final class TaskCommitStatement {

	private static final int HISTORY = 1;

	private static final int CONSUMED_INBOX = 2;

	private static final int REMOVED_TIMERS = 4;

	private static final int REMOVED_ACTIVITIES = 8;

	private static final int NEW_TIMERS = 16;

	private static final int CLOSES = 64;

	/**
	 * The run row is inserted in its state after the task (a start with its first task).
	 */
	private static final int STARTS = 128;

	/**
	 * The statement returns no rows: its last part is the history insert, whose update
	 * count says whether the compare-and-set matched, so that statements of one shape can
	 * go in one JDBC batch (one round trip for many commits).
	 */
	private static final int PIPELINED = 256;

	/**
	 * A close that tells no parent or children (the run has no parent and started none).
	 */
	private static final int TELLS_NO_ONE = 512;

	/**
	 * A close whose task consumed inbox items (the inbox check then leaves those out).
	 */
	private static final int CLOSES_AFTER_INBOX = 1024;

	/**
	 * The parts that bind an array: PostgreSQL re-plans them per execution unless told
	 * not to.
	 */
	private static final int ARRAY_PARTS = CONSUMED_INBOX | REMOVED_TIMERS | REMOVED_ACTIVITIES | NEW_TIMERS
			| CLOSES_AFTER_INBOX;

	/** The failure of updates a close leaves unfinished, by close status. */
	private static final Map<RunStatus, byte[]> UPDATE_NOT_COMPLETED = new ConcurrentHashMap<>();

	private final String schema;

	private final Map<Integer, String> statements = new ConcurrentHashMap<>();

	private final BuildRouter routing;

	TaskCommitStatement(String schema, BuildRouter routing) {
		this.schema = schema;
		this.routing = routing;
	}

	/** Whether a commit fits the single statement. */
	static boolean fits(TaskCommit c) {
		return c.relatives().childStarts().isEmpty() && c.relatives().externals().isEmpty()
				&& c.outputs().updates().isEmpty() && c.outputs().attributes() == null
				&& c.close().continuedAs() == null && c.close().carriedSignals().isEmpty()
				&& c.activities().queued().isEmpty() && c.outputs().events().isEmpty()
				&& c.outputs().topicWaits().isEmpty();
	}

	private static int shape(TaskCommit c) {
		int shape = c.recordsHistory() ? HISTORY : 0;
		if (c.closes()) {
			// closing clears every side table of the run
			return shape | CLOSES | (c.relatives().tellsRelatives() ? 0 : TELLS_NO_ONE)
					| (c.history().consumedInbox().isEmpty() ? 0 : CLOSES_AFTER_INBOX);
		}
		shape |= c.history().consumedInbox().isEmpty() ? 0 : CONSUMED_INBOX;
		shape |= c.timers().removed().isEmpty() ? 0 : REMOVED_TIMERS;
		shape |= c.activities().removed().isEmpty() ? 0 : REMOVED_ACTIVITIES;
		shape |= c.timers().started().isEmpty() ? 0 : NEW_TIMERS;
		return shape;
	}

	/**
	 * The shape of a write: its commit's, inserting the run first when {@code run} is
	 * given.
	 */
	private static int shape(NewRun run, TaskCommit c) {
		return shape(c) | ((run != null) ? STARTS : 0);
	}

	/** Whether the shape is a close that tells its parent and children. */
	private static boolean tellsRelatives(int shape) {
		return (shape & CLOSES) != 0 && (shape & TELLS_NO_ONE) == 0;
	}

	/**
	 * The statement of a closing task that records history and nothing else (for plan
	 * tests).
	 */
	String closingStatement() {
		return sql(HISTORY | CLOSES);
	}

	/**
	 * The statement of a start whose first task closes the run, written alone (for plan
	 * tests).
	 */
	String closingStartStatement() {
		return sql(STARTS | HISTORY | CLOSES | TELLS_NO_ONE);
	}

	private String sql(int shape) {
		return this.statements.computeIfAbsent(shape, this::build);
	}

	private String build(int shape) {
		StringBuilder sql = new StringBuilder();
		if ((shape & STARTS) != 0) {
			StartedRunInsert.append(sql, (shape & CLOSES) != 0);
		}
		else {
			sql.append("WITH u AS (UPDATE #.workflow_run SET history_seq = history_seq + ?,"
					+ " next_wake_at = ?, has_activities = ?, pending_input = (inbox_seq <> ?), task_attempt = 0,"
					+ " task_failure = NULL, status = COALESCE(?::text, status), closed_at = ?, unfinished_handlers = ?"
					+ this.routing.commitSet()
					// a paused run commits no task: one that began before the pause
					// reads the row again and stops
					+ " WHERE run_id = ? AND owner_node = ? AND epoch = ? AND history_seq = ? AND paused_at IS NULL AND "
					+ Sql.OPEN);
			if ((shape & CLOSES) != 0) {
				// a run closes only when its inbox holds nothing the task did not see
				// and only with the waiters' flag as the task read it (a close tells the
				// waiting nodes)
				sql.append(" AND inbox_seq = ? AND result_awaited = ? AND NOT EXISTS (SELECT 1 FROM #.inbox i"
						+ " WHERE i.run_id = #.workflow_run.run_id"
						+ (((shape & CLOSES_AFTER_INBOX) != 0) ? " AND NOT (i.id = ANY(?)))" : ")"));
			}
			sql.append(" RETURNING run_id, namespace, workflow_id, parent_run_id, parent_seq)");
		}
		if ((shape & HISTORY) != 0 && (shape & PIPELINED) == 0) {
			sql.append(
					", h AS (INSERT INTO #.history (run_id, seq, created_at, events) SELECT run_id, ?, ?, ? FROM u)");
		}
		if ((shape & CONSUMED_INBOX) != 0) {
			sql.append(", di AS (DELETE FROM #.inbox WHERE run_id IN (SELECT run_id FROM u) AND id = ANY(?))");
		}
		if ((shape & REMOVED_TIMERS) != 0) {
			sql.append(", dt AS (DELETE FROM #.timer WHERE run_id IN (SELECT run_id FROM u) AND seq = ANY(?))");
		}
		if ((shape & REMOVED_ACTIVITIES) != 0) {
			sql.append(", da AS (DELETE FROM #.activity WHERE run_id IN (SELECT run_id FROM u) AND seq = ANY(?))");
		}
		if ((shape & NEW_TIMERS) != 0) {
			sql.append(", nt AS (INSERT INTO #.timer (run_id, seq, fire_at) SELECT u.run_id, t.seq,"
					+ " timestamptz 'epoch' + t.micros * interval '1 microsecond'"
					+ " FROM u, unnest(?::bigint[], ?::bigint[]) AS t(seq, micros))");
		}
		if ((shape & CLOSES) != 0 && (shape & STARTS) == 0) {
			// the outcome and the cleared side tables
			sql.append(
					", cp AS (UPDATE #.run_payload SET result = ?, failure = ? WHERE run_id IN (SELECT run_id FROM u))"
							+ ", cv AS (UPDATE #.visibility SET status = ?, close_time = ? WHERE run_id IN (SELECT run_id FROM u))"
							+ ", ct AS (DELETE FROM #.timer WHERE run_id IN (SELECT run_id FROM u))"
							+ ", ca AS (DELETE FROM #.activity WHERE run_id IN (SELECT run_id FROM u))"
							+ ", ci AS (DELETE FROM #.inbox WHERE run_id IN (SELECT run_id FROM u))"
							// by the primary key's prefix (namespace, workflow id, kind):
							// dedup has no index on run_id
							+ ", cd AS (UPDATE #.dedup d SET stage = 'COMPLETED', failure = ? FROM u WHERE d.namespace = u.namespace"
							+ " AND d.workflow_id = u.workflow_id AND d.kind = 'UPDATE' AND d.run_id = u.run_id"
							+ " AND d.stage IN ('ADMITTED', 'ACCEPTED'))");
		}
		boolean tells = tellsRelatives(shape);
		if (tells) {
			// the parent and the children are told
			sql.append(", cparent AS (INSERT INTO #.inbox (run_id, kind, name, payload, message_id)"
					+ " SELECT parent_run_id, ?, parent_seq::text, ?, ? FROM u WHERE parent_run_id IS NOT NULL)"
					+ ", cchildren AS (INSERT INTO #.inbox (run_id, kind, payload) SELECT w.run_id,"
					+ " CASE w.parent_close_policy WHEN 'TERMINATE' THEN 'TERMINATE' ELSE 'CANCEL' END, ?"
					+ " FROM #.workflow_run w WHERE w.parent_run_id IN (SELECT run_id FROM u) AND w.status = 'RUNNING'"
					+ " AND w.parent_close_policy IN ('TERMINATE', 'REQUEST_CANCEL') RETURNING run_id)");
		}
		if ((shape & PIPELINED) != 0) {
			sql.append(" INSERT INTO #.history (run_id, seq, created_at, events) SELECT run_id, ?, ?, ? FROM u");
		}
		else if (tells) {
			sql.append(" SELECT parent_run_id FROM u UNION ALL SELECT run_id FROM cchildren");
		}
		else {
			sql.append(" SELECT NULL::uuid FROM u");
		}
		return Sql.q(this.schema, sql.toString());
	}

	/**
	 * Runs the commit on the connection (in autocommit, or inside the caller's
	 * transaction).
	 * @return the runs to wake, or {@code null} when the compare-and-set did not match
	 * and nothing was written
	 */
	List<UUID> execute(Connection con, TaskCommit c) throws SQLException {
		return execute(con, null, c);
	}

	/** Whether a start can be inserted with its first task's commit in one statement. */
	static boolean fitsStart(NewRun run, TaskCommit c) {
		return fits(c) && !c.relatives().tellsRelatives() && c.history().consumedInbox().isEmpty()
				&& c.timers().removed().isEmpty() && c.activities().removed().isEmpty() && run.memo().isEmpty()
				&& run.searchAttributes().isEmpty() && run.requestId() == null && run.wakeAt() == null
				&& run.owner() != null;
	}

	/**
	 * Inserts a run (see {@link #fitsStart}) with the rows of its first task, the run row
	 * already in the state the task leaves it in.
	 * @return whether it was inserted ({@code false}: an open run holds the workflow id)
	 */
	boolean insertStarted(Connection con, NewRun run, TaskCommit c) throws SQLException {
		return execute(con, run, c) != null;
	}

	/**
	 * Runs a task's commit, or inserts a run with its first task when {@code run} is
	 * given.
	 * @return the runs to wake, or {@code null} when nothing was written (compare-and-set
	 * failed, or an open run holds the id)
	 */
	List<UUID> execute(Connection con, NewRun run, TaskCommit c) throws SQLException {
		int shape = shape(run, c);
		try (PreparedStatement ps = con.prepareStatement(sql(shape))) {
			bind(ps, con, shape, run, c);
			try (ResultSet rs = ps.executeQuery()) {
				if (!rs.next()) {
					return null;
				}
				List<UUID> wake = new ArrayList<>(1);
				do {
					UUID other = rs.getObject(1, UUID.class);
					if (other != null) {
						wake.add(other);
					}
				}
				while (rs.next());
				return wake;
			}
		}
	}

	/**
	 * Whether a write can go in a JDBC batch with others of its shape
	 * ({@link #executeBatch}): it records history, and does not close the run or closes
	 * it telling no one (a close that tells a parent or children reports whom it woke).
	 */
	static boolean pipelines(TaskCommit c) {
		return c.recordsHistory() && (!c.closes() || !c.relatives().tellsRelatives());
	}

	/**
	 * Whether the write's statement binds an array. PostgreSQL plans such a statement
	 * anew on every execution (a custom plan for the array's length) unless the
	 * transaction asks for its generic plan; the others get their generic plan after a
	 * few executions by themselves.
	 */
	static boolean bindsArrays(TaskCommit c) {
		return (shape(c) & ARRAY_PARTS) != 0;
	}

	/**
	 * The statement of a write that {@link #pipelines}; writes with the same one go in
	 * one batch.
	 */
	String pipelinedSql(NewRun run, TaskCommit c) {
		return sql(shape(run, c) | PIPELINED);
	}

	/**
	 * Writes commits that {@link #pipelines} and share one {@link #pipelinedSql
	 * statement} in one round trip, inside the caller's transaction.
	 * @return per write, whether it was written (its compare-and-set matched, or its run
	 * inserted)
	 */
	boolean[] executeBatch(Connection con, String sql, List<NewRun> runs, List<TaskCommit> commits)
			throws SQLException {
		try (PreparedStatement ps = con.prepareStatement(sql)) {
			for (int n = 0; n < commits.size(); n++) {
				NewRun run = runs.get(n);
				TaskCommit c = commits.get(n);
				bind(ps, con, shape(run, c) | PIPELINED, run, c);
				ps.addBatch();
			}
			int[] counts = ps.executeBatch();
			boolean[] written = new boolean[counts.length];
			for (int n = 0; n < counts.length; n++) {
				written[n] = counts[n] > 0;
			}
			return written;
		}
	}

	private void bind(PreparedStatement ps, Connection con, int shape, NewRun run, TaskCommit c) throws SQLException {
		int i = 1;
		boolean starts = run != null;
		if (starts) {
			i = StartedRunInsert.bind(ps, i, (shape & CLOSES) != 0, run, c);
		}
		else {
			ps.setInt(i++, c.recordsHistory() ? 1 : 0);
			ps.setTimestamp(i++, Sql.ts(c.timers().nextWakeAt()));
			ps.setBoolean(i++, c.activities().inlinePending());
			ps.setLong(i++, c.fence().seenInboxSeq());
			ps.setString(i++, RunStatus.column(c.close().status()));
			ps.setTimestamp(i++, c.closes() ? Sql.ts(c.history().time()) : null);
			ps.setInt(i++, c.outputs().unfinishedHandlers());
			ps.setObject(i++, c.fence().runId());
			ps.setObject(i++, c.fence().node());
			ps.setLong(i++, c.fence().epoch());
			ps.setInt(i++, c.history().historySeq());
		}
		if ((shape & CLOSES) != 0 && !starts) {
			ps.setLong(i++, c.fence().seenInboxSeq());
			ps.setBoolean(i++, c.fence().resultAwaited());
		}
		if ((shape & CLOSES_AFTER_INBOX) != 0) {
			ps.setArray(i++, con.createArrayOf("bigint", c.history().consumedInbox().toArray()));
		}
		if ((shape & HISTORY) != 0 && (shape & PIPELINED) == 0) {
			i = bindHistory(ps, i, c);
		}
		if ((shape & CONSUMED_INBOX) != 0) {
			ps.setArray(i++, con.createArrayOf("bigint", c.history().consumedInbox().toArray()));
		}
		if ((shape & REMOVED_TIMERS) != 0) {
			ps.setArray(i++, con.createArrayOf("bigint", c.timers().removed().toArray()));
		}
		if ((shape & REMOVED_ACTIVITIES) != 0) {
			ps.setArray(i++, con.createArrayOf("bigint", c.activities().removed().toArray()));
		}
		if ((shape & NEW_TIMERS) != 0) {
			List<Long> seqs = new ArrayList<>(c.timers().started().keySet());
			List<Long> micros = c.timers()
				.started()
				.values()
				.stream()
				.map((at) -> at.getEpochSecond() * 1_000_000L + at.getNano() / 1_000)
				.toList();
			ps.setArray(i++, con.createArrayOf("bigint", seqs.toArray()));
			ps.setArray(i++, con.createArrayOf("bigint", micros.toArray()));
		}
		if ((shape & CLOSES) != 0 && !starts) {
			ps.setBytes(i++, c.close().result());
			ps.setBytes(i++, c.close().failure());
			ps.setString(i++, RunStatus.column(c.close().status()));
			ps.setTimestamp(i++, Sql.ts(c.history().time()));
			ps.setBytes(i++,
					UPDATE_NOT_COMPLETED.computeIfAbsent(c.close().status(), RunRepository::updateNotCompleted));
		}
		if (tellsRelatives(shape)) {
			boolean completed = c.close().status() == RunStatus.COMPLETED;
			ps.setString(i++, (completed ? InboxKind.CHILD_COMPLETED : InboxKind.CHILD_FAILED).stored());
			ps.setBytes(i++, completed ? c.close().result() : c.close().failure());
			ps.setString(i++, completed ? null : RunStatus.column(c.close().status()));
			ps.setBytes(i++, ("parent run " + c.fence().runId() + " closed: " + c.close().status())
				.getBytes(StandardCharsets.UTF_8));
		}
		if ((shape & PIPELINED) != 0) {
			bindHistory(ps, i, c);
		}
	}

	private static int bindHistory(PreparedStatement ps, int from, TaskCommit c) throws SQLException {
		int i = from;
		ps.setInt(i++, c.history().historySeq() + 1);
		ps.setTimestamp(i++, Sql.ts(c.history().time()));
		ps.setBytes(i++, c.history().events());
		return i;
	}

}
