package dev.durable.workflow.internal.commit;

import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.store.ActivityRepository;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.OutputRepository;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.versioning.BuildRouter;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.store.Sql;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * The single commit of a workflow task: one statement ({@link TaskCommitStatement},
 * group-committed by the node's {@link TaskWriter} once it runs), or several in the
 * caller's transaction.
 */
public final class TaskCommitRepository {

	private final JdbcTemplate jdbc;

	private final RunRepository runs;

	private final ActivityRepository activities;

	private final String schema;

	private final TaskCommitStatement single;

	private final OutputRepository outputs;

	private volatile TaskWriter writer;

	/**
	 * Commits waiting at which the group commit's second writer thread writes batches
	 * beside the first. Below it, waiting commits gather into larger batches on the first
	 * thread: fewer transactions per task. Measured on the benchmarks' 3-step workflows
	 * (BENCHMARKS.md, "Group commit: one writer thread or two"): where the WAL flush is
	 * slow, a second thread taking every waiting commit cost a fifth more CPU per
	 * workflow at 16 clients for no throughput, and no second thread cost a sixth of the
	 * throughput at 64; where it is fast, waiting for 16 commits cost a tenth of the
	 * throughput at 16 clients, and 8 ran as fast as 1 with fewer transactions.
	 */
	static final int SECOND_WRITER_DEPTH = 8;

	private final BuildRouter routing;

	/**
	 * @param routing what every commit records of the node's build on the run row
	 */
	public TaskCommitRepository(JdbcTemplate jdbc, RunRepository runs, String schema, BuildRouter routing) {
		this.routing = routing;
		this.jdbc = jdbc;
		this.activities = new ActivityRepository(jdbc, schema);
		this.runs = runs;
		this.schema = schema;
		this.single = new TaskCommitStatement(schema, routing);
		this.outputs = new OutputRepository(jdbc, schema);
	}

	/**
	 * Whether the commit is one statement ({@link #commitAlone}): no child starts,
	 * messages to other workflows, update outcomes, memo or search attribute changes,
	 * outputs, or next run.
	 */
	public static boolean isSingleStatement(TaskCommit c) {
		return TaskCommitStatement.fits(c);
	}

	/**
	 * Whether a start and its first task's commit are one statement
	 * ({@link #insertStarted}).
	 */
	public static boolean isSingleStatementStart(NewRun run, TaskCommit firstTask) {
		return TaskCommitStatement.fitsStart(run, firstTask);
	}

	/**
	 * Inserts a run with the rows of its first task in one statement, in autocommit: the
	 * start and its first task commit together or not at all.
	 * @return whether it was inserted ({@code false}: an open run holds its workflow id
	 * and nothing was written)
	 */
	public boolean insertStarted(NewRun run, TaskCommit firstTask) {
		if (org.springframework.transaction.support.TransactionSynchronizationManager.isActualTransactionActive()) {
			// the engine never starts eagerly inside a caller's transaction (the start
			// joins it)
			throw new IllegalStateException("A run is inserted with its first task only outside a transaction");
		}
		TaskWriter current = this.writer;
		if (current != null) {
			return current.write(run, firstTask) != null;
		}
		return Boolean.TRUE
			.equals(TaskWriter.alone(this.jdbc, false, (con) -> this.single.insertStarted(con, run, firstTask)));
	}

	/**
	 * Starts the node's group commit: from now on single-statement commits outside a
	 * transaction are written by one writer thread, batched with the others waiting (see
	 * {@link TaskWriter}).
	 */
	public void startWriter(String threadName) {
		startWriter(threadName, SECOND_WRITER_DEPTH);
	}

	/**
	 * Starts the group commit with the writes waiting at which its second writer thread
	 * takes batches beside the first.
	 */
	synchronized void startWriter(String threadName, int secondWriterDepth) {
		if (this.writer == null) {
			this.writer = new TaskWriter(this.jdbc, this.single, threadName, secondWriterDepth);
		}
	}

	/** Stops the group commit; commits are then written by their own threads. */
	public synchronized void stopWriter() {
		TaskWriter current = this.writer;
		this.writer = null;
		if (current != null) {
			current.close();
		}
	}

	/**
	 * Commits a task that {@link #isSingleStatement is one statement}: on its own in
	 * autocommit (no transaction block, one round trip), or inside the caller's
	 * transaction when there is one.
	 * @return what the commit did to other runs, or {@code null} when the compare-and-set
	 * on the run row failed (nothing was written)
	 */
	public TaskCommit.Effects commitAlone(TaskCommit c) {
		boolean joined = org.springframework.transaction.support.TransactionSynchronizationManager
			.isActualTransactionActive();
		TaskWriter current = this.writer;
		List<UUID> wake = (!joined && current != null) ? current.write(null, c)
				: TaskWriter.alone(this.jdbc, joined, (con) -> this.single.execute(con, c));
		return (wake != null) ? new TaskCommit.Effects(wake, List.of()) : null;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * Commits a task; must run inside a transaction.
	 * @return what the commit did to other runs, or {@code null} when the compare-and-set
	 * on the run row failed (nothing may be written: the caller rolls back)
	 */
	public TaskCommit.Effects commit(TaskCommit c) {
		int updated = this.jdbc.update(q("UPDATE #.workflow_run SET history_seq = history_seq + ?, next_wake_at = ?,"
				+ " has_activities = ?, pending_input = (inbox_seq <> ?), task_attempt = 0, task_failure = NULL,"
				+ " status = COALESCE(?::text, status), closed_at = ?, unfinished_handlers = ?"
				+ this.routing.commitSet()
				// a paused run commits no task (see TaskCommitStatement)
				+ " WHERE run_id = ? AND owner_node = ? AND epoch = ? AND history_seq = ? AND paused_at IS NULL AND "
				+ Sql.OPEN
				+ " AND (NOT ? OR (inbox_seq = ? AND result_awaited = ? AND NOT EXISTS (SELECT 1 FROM #.inbox i"
				+ " WHERE i.run_id = #.workflow_run.run_id AND NOT (i.id = ANY(?)))))"
				// update outcomes too are told to the nodes that wait: with the flag the
				// task read
				+ " AND (NOT ? OR result_awaited = ?)"), c.recordsHistory() ? 1 : 0, Sql.ts(c.timers().nextWakeAt()),
				c.activities().inlinePending(), c.fence().seenInboxSeq(), RunStatus.column(c.close().status()),
				c.closes() ? Sql.ts(c.history().time()) : null, c.outputs().unfinishedHandlers(), c.fence().runId(),
				c.fence().node(), c.fence().epoch(), c.history().historySeq(), c.closes(), c.fence().seenInboxSeq(),
				c.fence().resultAwaited(),
				this.jdbc.execute((java.sql.Connection con) -> con.createArrayOf("bigint",
						c.history().consumedInbox().toArray())),
				!c.outputs().updates().isEmpty(), c.fence().resultAwaited());
		if (updated != 1) {
			return null;
		}
		List<UUID> wake = new ArrayList<>();
		List<NewRun> started = new ArrayList<>();
		for (TaskCommit.ChildStart child : c.relatives().childStarts()) {
			String refused = this.runs.refusedReuse(child.run().namespace(), child.run().workflowId(),
					child.idReusePolicy());
			if (refused != null) {
				this.runs.insertInbox(c.fence().runId(), InboxKind.CHILD_START_FAILED, String.valueOf(child.seq()),
						InternalJson.write(FailureInfo.application("WorkflowIdReuse", refused, true, null, null, null)),
						null);
			}
			else if (this.runs.insertChild(child.run(), c.fence().runId(), child.seq(), child.parentClosePolicy())) {
				this.runs.insertInbox(c.fence().runId(), InboxKind.CHILD_STARTED, String.valueOf(child.seq()), null,
						child.run().runId().toString());
				started.add(child.run());
			}
			else {
				FailureInfo failure = FailureInfo.application("WorkflowAlreadyStarted",
						"workflow id '" + child.run().workflowId() + "' is used by an open run", true, null, null,
						null);
				this.runs.insertInbox(c.fence().runId(), InboxKind.CHILD_START_FAILED, String.valueOf(child.seq()),
						InternalJson.write(failure), null);
			}
		}
		for (TaskCommit.External external : c.relatives().externals()) {
			List<UUID> target = this.jdbc.query(
					q("SELECT run_id FROM #.workflow_run WHERE namespace = ?"
							+ " AND workflow_id = ? AND status = 'RUNNING' AND (?::uuid IS NULL OR run_id = ?::uuid)"),
					(rs, n) -> Sql.uuid(rs, "run_id"), c.fence().namespace(), external.workflowId(), external.runId(),
					external.runId());
			FailureInfo failure = null;
			if (target.isEmpty()) {
				failure = FailureInfo.application("ExternalWorkflowNotFound",
						"no open run of workflow '" + external.workflowId() + "'"
								+ ((external.runId() != null) ? " with run id " + external.runId() : ""),
						true, null, null, null);
			}
			else {
				this.runs.insertInbox(target.get(0), external.kind(), external.name(), external.payload(), null);
				wake.add(target.get(0));
			}
			this.runs.insertInbox(c.fence().runId(), InboxKind.EXTERNAL_DELIVERED, String.valueOf(external.seq()),
					(failure != null) ? InternalJson.write(failure) : null, null);
		}
		if ((!c.relatives().childStarts().isEmpty() || !c.relatives().externals().isEmpty()) && !c.closes()) {
			this.runs.markPendingInput(c.fence().runId());
			wake.add(c.fence().runId());
		}
		if (c.outputs().attributes() != null) {
			this.runs.visibility()
				.update(c.fence().runId(), c.outputs().attributes().memo(),
						c.outputs().attributes().searchAttributes());
		}
		if (c.recordsHistory()) {
			this.jdbc.update(q("INSERT INTO #.history (run_id, seq, created_at, events) VALUES (?, ?, ?, ?)"),
					c.fence().runId(), c.history().historySeq() + 1, Sql.ts(c.history().time()), c.history().events());
		}
		this.outputs.write(c.fence().runId(), c.fence().namespace(), c.fence().workflowId(), c.history().time(),
				c.outputs().events());
		this.outputs.registerWaits(c.fence().runId(), c.fence().namespace(), c.outputs().topicWaits());
		for (var update : c.outputs().updates()) {
			this.jdbc.update(
					q("UPDATE #.dedup SET stage = ?, outcome = ?, failure = ? WHERE namespace = ?"
							+ " AND workflow_id = ? AND kind = 'UPDATE' AND dedup_key = ? AND stage <> 'COMPLETED'"),
					update.stage(), update.result(),
					(update.failure() != null) ? InternalJson.write(update.failure()) : null, c.fence().namespace(),
					c.fence().workflowId(), update.updateId());
		}
		if (c.closes()) {
			wake.addAll(this.runs.closeSideTables(c.fence().runId(), c.close().status(), c.close().result(),
					c.close().failure(), c.history().time(), c.close().continuedAs() != null));
			if (c.close().continuedAs() != null) {
				this.runs.insert(c.close().continuedAs());
				this.runs.continueChain(c.fence().runId(), c.close().continuedAs().runId());
				// the next run goes on with the events set so far (its streams start
				// empty)
				this.outputs.copyEvents(c.fence().runId(), c.close().continuedAs().runId());
				c.close()
					.carriedSignals()
					.forEach((name, payloads) -> payloads
						.forEach((payload) -> this.runs.sendToInbox(c.close().continuedAs().runId(), InboxKind.SIGNAL,
								name, (payload.length == 0) ? null : payload)));
			}
			return new TaskCommit.Effects(wake, started);
		}
		deleteBySeq("inbox", "id", c.fence().runId(), c.history().consumedInbox());
		deleteBySeq("timer", "seq", c.fence().runId(), c.timers().removed());
		deleteBySeq("activity", "seq", c.fence().runId(), c.activities().removed());
		this.activities.insertQueued(c.fence().namespace(), c.fence().workflowId(), c.activities().queued());
		if (!c.timers().started().isEmpty()) {
			List<Map.Entry<Long, java.time.Instant>> timers = new ArrayList<>(c.timers().started().entrySet());
			this.jdbc.batchUpdate(q("INSERT INTO #.timer (run_id, seq, fire_at) VALUES (?, ?, ?)"), timers,
					timers.size(), (PreparedStatement ps, Map.Entry<Long, java.time.Instant> t) -> {
						ps.setObject(1, c.fence().runId());
						ps.setLong(2, t.getKey());
						ps.setTimestamp(3, Sql.ts(t.getValue()));
					});
		}
		return new TaskCommit.Effects(wake, started);
	}

	private void deleteBySeq(String table, String column, UUID runId, List<Long> ids) {
		if (ids.isEmpty()) {
			return;
		}
		this.jdbc.update(q("DELETE FROM #." + table + " WHERE run_id = ? AND " + column + " = ANY(?)"),
				(org.springframework.jdbc.core.PreparedStatementSetter) (ps) -> {
					ps.setObject(1, runId);
					ps.setArray(2, ps.getConnection().createArrayOf("bigint", ids.toArray()));
				});
	}

}
