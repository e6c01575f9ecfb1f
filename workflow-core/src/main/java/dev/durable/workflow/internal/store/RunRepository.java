package dev.durable.workflow.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * The run row, its cold payloads and its visibility row: starts, reads, inbox writes,
 * terminate (claims and the owner-fenced writes are {@link RunOwnership}).
 */
public final class RunRepository {

	private static final String COLUMNS = "run_id, namespace, workflow_id, workflow_type, task_queue, status, owner_node,"
			+ " epoch, history_seq, inbox_seq, pending_input, next_wake_at, task_attempt, task_failure, created_at,"
			+ " closed_at, unfinished_handlers, parent_run_id, parent_seq, run_deadline, execution_deadline, attempt,"
			+ " next_run_id, result_awaited, paused_at, pause_reason, build_id, pinned, ramp_bucket";

	private static final RowMapper<RunRow> ROW = RunRepository::mapRow;

	private final JdbcTemplate jdbc;

	private final String schema;

	private final VisibilityRepository visibility;

	private final AwaitedRuns awaited;

	private final String sendToInbox;

	public RunRepository(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = schema;
		this.sendToInbox = InboxSendSql.statement(schema, "w.run_id = ?");
		this.visibility = new VisibilityRepository(jdbc, schema);
		this.awaited = new AwaitedRuns(jdbc, schema);
	}

	/** The runs nodes that do not hold them wait for. */
	public AwaitedRuns awaited() {
		return this.awaited;
	}

	/** The visibility rows: memo, search attributes, list and count. */
	public VisibilityRepository visibility() {
		return this.visibility;
	}

	JdbcTemplate jdbc() {
		return this.jdbc;
	}

	String schema() {
		return this.schema;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	static RunRow mapRow(ResultSet rs, int n) throws SQLException {
		return new RunRow(Sql.uuid(rs, "run_id"), rs.getString("namespace"), rs.getString("workflow_id"),
				rs.getString("workflow_type"), rs.getString("task_queue"), RunStatus.stored(rs.getString("status")),
				Sql.uuid(rs, "owner_node"), rs.getLong("epoch"), rs.getInt("history_seq"), rs.getLong("inbox_seq"),
				rs.getBoolean("pending_input"), Sql.instant(rs, "next_wake_at"), rs.getInt("task_attempt"),
				rs.getString("task_failure"), Sql.instant(rs, "created_at"), Sql.instant(rs, "closed_at"),
				rs.getInt("unfinished_handlers"), Sql.uuid(rs, "parent_run_id"), (Long) rs.getObject("parent_seq"),
				Sql.instant(rs, "run_deadline"), Sql.instant(rs, "execution_deadline"), rs.getInt("attempt"),
				Sql.uuid(rs, "next_run_id"), rs.getBoolean("result_awaited"), Sql.instant(rs, "paused_at"),
				rs.getString("pause_reason"),
				new BuildAssignment(rs.getString("build_id"), rs.getBoolean("pinned"), rs.getInt("ramp_bucket")));
	}

	public Optional<RunRow> find(UUID runId) {
		return this.jdbc.query(q("SELECT " + COLUMNS + " FROM #.workflow_run WHERE run_id = ?"), ROW, runId)
			.stream()
			.findFirst();
	}

	/**
	 * A run row with the items waiting in its inbox.
	 *
	 * @param row the run
	 * @param inbox its inbox items, oldest first
	 */
	public record Loaded(RunRow row, List<InboxItem> inbox) {
	}

	/**
	 * What a workflow task starts from, the run row and its inbox, in one statement (one
	 * round trip, one transaction): other runs add inbox items without touching the row,
	 * so both are always read.
	 */
	public Optional<Loaded> load(UUID runId) {
		List<RunRow> row = new java.util.ArrayList<>(1);
		List<InboxItem> inbox = new java.util.ArrayList<>();
		this.jdbc.query(q("SELECT w.*, i.id AS inbox_id, i.kind AS inbox_kind, i.name AS inbox_name,"
				+ " i.payload AS inbox_payload, i.message_id AS inbox_message_id FROM (SELECT " + COLUMNS
				+ " FROM #.workflow_run WHERE run_id = ?) w LEFT JOIN #.inbox i ON i.run_id = w.run_id ORDER BY i.id"),
				(java.sql.ResultSet rs) -> {
					if (row.isEmpty()) {
						row.add(mapRow(rs, 0));
					}
					long id = rs.getLong("inbox_id");
					if (!rs.wasNull()) {
						inbox
							.add(new InboxItem(id, InboxKind.of(rs.getString("inbox_kind")), rs.getString("inbox_name"),
									rs.getBytes("inbox_payload"), rs.getString("inbox_message_id")));
					}
				}, runId);
		return row.isEmpty() ? Optional.empty() : Optional.of(new Loaded(row.get(0), inbox));
	}

	/**
	 * Whether the open run's last task left activities pending (the flag claims look at).
	 */
	public boolean hasActivities(UUID runId) {
		return Boolean.TRUE.equals(this.jdbc.query(q("SELECT has_activities FROM #.workflow_run WHERE run_id = ?"),
				(rs) -> rs.next() ? rs.getBoolean(1) : null, runId));
	}

	/** The flow-control queue the run was started into, when it was. */
	public Optional<String> queueOf(UUID runId) {
		return this.jdbc.queryForList(q("SELECT queue FROM #.queued_run WHERE run_id = ?"), String.class, runId)
			.stream()
			.findFirst();
	}

	/** The latest run of a workflow id. */
	public Optional<RunRow> findLatest(String namespace, String workflowId) {
		return this.jdbc
			.query(q("SELECT " + COLUMNS + " FROM #.workflow_run WHERE namespace = ? AND workflow_id = ?"
					+ InboxSendSql.LATEST_FIRST + " LIMIT 1"), ROW, namespace, workflowId)
			.stream()
			.findFirst();
	}

	/** The open run of a workflow id, locked for the rest of the transaction. */
	public Optional<RunRow> lockOpen(String namespace, String workflowId) {
		return this.jdbc
			.query(q("SELECT " + COLUMNS + " FROM #.workflow_run WHERE namespace = ? AND workflow_id = ?"
					+ " AND status = 'RUNNING' FOR UPDATE"), ROW, namespace, workflowId)
			.stream()
			.findFirst();
	}

	public Optional<RunRow> findByRequestId(String namespace, String workflowId, String requestId) {
		return this.jdbc
			.query(q("SELECT " + COLUMNS + " FROM #.workflow_run WHERE namespace = ? AND workflow_id = ?"
					+ " AND request_id = ? ORDER BY created_at DESC LIMIT 1"), ROW, namespace, workflowId, requestId)
			.stream()
			.findFirst();
	}

	public void insert(NewRun run) {
		insert(run, false);
	}

	/**
	 * Inserts a run, or, {@code queued}, a run that waits in a flow-control queue: not
	 * runnable (no owner, no wake time, {@link RunOwnership#WAITING_IN_QUEUE}) until its
	 * admission.
	 */
	public void insert(NewRun run, boolean queued) {
		boolean runnableNow = run.wakeAt() == null;
		this.jdbc.update(q("INSERT INTO #.workflow_run (run_id, namespace, workflow_id, workflow_type, task_queue,"
				+ " status, owner_node, epoch, history_seq, next_wake_at, pending_input, request_id, created_at,"
				+ " run_deadline, execution_deadline, attempt, task_attempt, build_id, pinned, ramp_bucket)"
				+ " VALUES (?, ?, ?, ?, ?, 'RUNNING', ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"), run.runId(),
				run.namespace(), run.workflowId(), run.workflowType(), run.taskQueue(), run.owner(),
				(run.owner() != null) ? 1L : 0L, queued ? null : Sql.ts(runnableNow ? run.createdAt() : run.wakeAt()),
				!queued && runnableNow && run.owner() == null, run.requestId(), Sql.ts(run.createdAt()),
				Sql.ts(run.runDeadline()), Sql.ts(run.executionDeadline()), run.attempt(),
				queued ? RunOwnership.WAITING_IN_QUEUE : 0, run.build().buildId(), run.build().pinned(),
				run.build().rampBucket());
		this.jdbc.update(q("INSERT INTO #.run_payload (run_id, input, options) VALUES (?, ?, ?)"), run.runId(),
				run.input(), chainBytes(run));
		this.visibility.insert(run);
	}

	/**
	 * Why a child's id reuse policy refuses its workflow id, or {@code null} when it may
	 * start: REJECT_DUPLICATE refuses any earlier run of the id,
	 * ALLOW_DUPLICATE_FAILED_ONLY a latest run that completed (open runs are refused by
	 * the unique index, as for every start).
	 */
	public String refusedReuse(String namespace, String workflowId, String policy) {
		if (policy == null || "ALLOW_DUPLICATE".equals(policy)) {
			return null;
		}
		RunStatus latest = this.jdbc
			.query(q("SELECT status FROM #.workflow_run WHERE namespace = ? AND workflow_id = ?"
					+ " ORDER BY created_at DESC, run_id DESC LIMIT 1"), (rs, n) -> RunStatus.stored(rs.getString(1)),
					namespace, workflowId)
			.stream()
			.findFirst()
			.orElse(null);
		if (latest == null || latest == RunStatus.RUNNING) {
			return null;
		}
		if ("REJECT_DUPLICATE".equals(policy) || latest == RunStatus.COMPLETED) {
			return "workflow id '" + workflowId + "' was used by a run that closed " + latest + " and the child's id"
					+ " reuse policy is " + policy;
		}
		return null;
	}

	public static byte[] chainBytes(NewRun run) {
		return (run.chain() != null && !run.chain().isEmpty()) ? InternalJson.write(run.chain()) : null;
	}

	/**
	 * Inserts a child run unless its workflow id is used by an open run: the conflict is
	 * an answer for the parent, not an error that would abort the parent's task.
	 * @return whether the child was inserted
	 */
	public boolean insertChild(NewRun run, UUID parentRunId, long parentSeq, String parentClosePolicy) {
		List<UUID> inserted = this.jdbc.query(q("INSERT INTO #.workflow_run (run_id, namespace, workflow_id,"
				+ " workflow_type, task_queue, status, owner_node, epoch, history_seq, next_wake_at, pending_input,"
				+ " created_at, parent_run_id, parent_seq, parent_close_policy, run_deadline, execution_deadline,"
				+ " build_id, pinned, ramp_bucket) VALUES (?, ?, ?, ?, ?, 'RUNNING', ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?,"
				+ " ?, ?, ?)"
				+ " ON CONFLICT (namespace, workflow_id) WHERE status = 'RUNNING' DO NOTHING RETURNING run_id"),
				(rs, n) -> Sql.uuid(rs, "run_id"), run.runId(), run.namespace(), run.workflowId(), run.workflowType(),
				run.taskQueue(), run.owner(), (run.owner() != null) ? 1L : 0L, Sql.ts(run.createdAt()),
				run.owner() == null, Sql.ts(run.createdAt()), parentRunId, parentSeq, parentClosePolicy,
				Sql.ts(run.runDeadline()), Sql.ts(run.executionDeadline()), run.build().buildId(), run.build().pinned(),
				run.build().rampBucket());
		if (inserted.isEmpty()) {
			return false;
		}
		this.jdbc.update(q("INSERT INTO #.run_payload (run_id, input, options) VALUES (?, ?, ?)"), run.runId(),
				run.input(), chainBytes(run));
		this.visibility.insert(run);
		return true;
	}

	/**
	 * Adds an item to another run's inbox without touching its row (no cross-run locks).
	 * The receiver finds it by its inbox, and a run cannot close while its inbox holds
	 * unseen items.
	 */
	public void insertInbox(UUID runId, InboxKind kind, String name, byte[] payload, String messageId) {
		this.jdbc.update(q("INSERT INTO #.inbox (run_id, kind, name, payload, message_id) VALUES (?, ?, ?, ?, ?)"),
				runId, kind.stored(), name, payload, messageId);
	}

	/** Deletes inbox items of a run by id (items that are no input of its workflow). */
	public void deleteInbox(UUID runId, List<Long> ids) {
		this.jdbc.update(q("DELETE FROM #.inbox WHERE run_id = ? AND id = ANY(?)"),
				(org.springframework.jdbc.core.PreparedStatementSetter) (ps) -> {
					ps.setObject(1, runId);
					ps.setArray(2, ps.getConnection().createArrayOf("bigint", ids.toArray()));
				});
	}

	/** Marks a run's own row as having input (inside that run's own commit). */
	public void markPendingInput(UUID runId) {
		this.jdbc.update(
				q("UPDATE #.workflow_run SET pending_input = true, inbox_seq = inbox_seq + 1 WHERE run_id = ?"), runId);
	}

	/** The run's retry policy and cron schedule, or {@code null}. */
	public RunChain chain(UUID runId) {
		List<byte[]> options = this.jdbc.query(q("SELECT options FROM #.run_payload WHERE run_id = ?"),
				(rs, n) -> rs.getBytes(1), runId);
		return (options.isEmpty() || options.get(0) == null) ? null : InternalJson.read(options.get(0), RunChain.class);
	}

	/** Links a closed run to the run that follows it. */
	public void setNextRun(UUID runId, UUID nextRunId) {
		this.jdbc.update(q("UPDATE #.workflow_run SET next_run_id = ? WHERE run_id = ?"), nextRunId, runId);
	}

	/**
	 * Links a closed run to the run that follows it in its chain (continue-as-new, retry,
	 * cron), which inherits the closed run's place under its parent: the parent waits for
	 * the chain, not for one run, so the run that ends the chain tells it, and the
	 * parent's close policy reaches the chain's current run.
	 */
	public void continueChain(UUID runId, UUID nextRunId) {
		setNextRun(runId, nextRunId);
		this.jdbc.update(q("UPDATE #.workflow_run n SET parent_run_id = c.parent_run_id, parent_seq = c.parent_seq,"
				+ " parent_close_policy = c.parent_close_policy FROM #.workflow_run c WHERE n.run_id = ?"
				+ " AND c.run_id = ? AND c.parent_run_id IS NOT NULL"), nextRunId, runId);
	}

	/** The run's stored input, or {@code null} (none, or no payload row). */
	public byte[] input(UUID runId) {
		return this.jdbc.query(q("SELECT input FROM #.run_payload WHERE run_id = ?"),
				(rs) -> rs.next() ? rs.getBytes(1) : null, runId);
	}

	/**
	 * The close outcome of a run.
	 *
	 * @param status the status
	 * @param result encoded result
	 * @param failure recorded failure
	 * @param nextRunId the run that followed (continue-as-new, retry, cron), or
	 * {@code null}
	 */
	public record Outcome(RunStatus status, byte[] result, FailureInfo failure, UUID nextRunId) {
	}

	public Optional<Outcome> outcome(UUID runId) {
		return this.jdbc
			.query(q("SELECT r.status, p.result, p.failure, r.next_run_id FROM #.workflow_run r"
					+ " JOIN #.run_payload p ON p.run_id = r.run_id WHERE r.run_id = ?"),
					(rs, n) -> new Outcome(RunStatus.stored(rs.getString(1)), rs.getBytes(2),
							InternalJson.read(rs.getBytes(3), FailureInfo.class), Sql.uuid(rs, "next_run_id")),
					runId)
			.stream()
			.findFirst();
	}

	/**
	 * Closes an open run without running workflow code. Bumps the epoch and the history
	 * sequence, so the owner's next commit fails its compare-and-set.
	 * @return whether the run was open
	 */
	public boolean terminate(UUID runId, String reason, Instant now) {
		return terminateAndWake(runId, reason, now) != null;
	}

	/**
	 * Terminates an open run. @return the runs to wake (parent, children), or
	 * {@code null} when it was closed
	 */
	public List<UUID> terminateAndWake(UUID runId, String reason, Instant now) {
		return closeWithoutCode(runId, RunStatus.TERMINATED, EventType.WORKFLOW_TERMINATED,
				FailureInfo.terminated(reason), reason, now);
	}

	/**
	 * Closes an open run whose run or execution timeout passed. @return runs to wake, or
	 * null
	 */
	public List<UUID> timeOut(UUID runId, FailureInfo failure, Instant now) {
		return closeWithoutCode(runId, RunStatus.TIMED_OUT, EventType.WORKFLOW_TIMED_OUT, failure, failure.message(),
				now);
	}

	/**
	 * Closes an open run without running workflow code. Bumps the epoch and the history
	 * sequence, so the owner's next commit fails its compare-and-set.
	 */
	private List<UUID> closeWithoutCode(UUID runId, RunStatus status, EventType type, FailureInfo failure,
			String reason, Instant now) {
		List<Integer> seq = this.jdbc.query(q("UPDATE #.workflow_run SET status = ?, closed_at = ?,"
				+ " epoch = epoch + 1, owner_node = NULL, history_seq = history_seq + 1, pending_input = false,"
				+ " has_activities = false, next_wake_at = NULL WHERE run_id = ? AND " + Sql.OPEN
				+ " RETURNING history_seq, result_awaited"), (rs, n) -> {
					this.awaited.closing(runId, rs.getBoolean(2));
					return rs.getInt(1);
				}, status.name(), Sql.ts(now), runId);
		if (seq.isEmpty()) {
			return null;
		}
		Event event = Event.closedOutsideTasks(type, failure, reason);
		this.jdbc.update(q("INSERT INTO #.history (run_id, seq, created_at, events) VALUES (?, ?, ?, ?)"), runId,
				seq.get(0), Sql.ts(now), EventCodec.write(List.of(event)));
		return closeSideTables(runId, status, null, InternalJson.write(failure), now, false);
	}

	/**
	 * Writes the outcome and clears what a closed run no longer needs; tells the parent
	 * of a child whose chain ends with this run and applies the parent close policy to
	 * open children, through their inboxes.
	 * @param chainGoesOn whether a next run follows this one (continue-as-new, retry,
	 * cron): it carries the parent link on ({@link #continueChain}), and the parent hears
	 * only of the run that ends the chain, as in Temporal
	 * @return the runs that got inbox items and should be woken
	 */
	public List<UUID> closeSideTables(UUID runId, RunStatus status, byte[] result, byte[] failure, Instant now,
			boolean chainGoesOn) {
		this.jdbc.update(q("UPDATE #.run_payload SET result = ?, failure = ? WHERE run_id = ?"), result, failure,
				runId);
		this.jdbc.update(q("UPDATE #.visibility SET status = ?, close_time = ? WHERE run_id = ?"), status.name(),
				Sql.ts(now), runId);
		this.jdbc.update(q("DELETE FROM #.timer WHERE run_id = ?"), runId);
		this.jdbc.update(q("DELETE FROM #.activity WHERE run_id = ?"), runId);
		this.jdbc.update(q("DELETE FROM #.inbox WHERE run_id = ?"), runId);
		// updates still waiting for this run will never complete: tell their callers
		// by the primary key's prefix (namespace, workflow id, kind): dedup has no index
		// on run_id
		this.jdbc.update(
				q("UPDATE #.dedup d SET stage = 'COMPLETED', failure = ? FROM #.workflow_run r"
						+ " WHERE r.run_id = ? AND d.namespace = r.namespace AND d.workflow_id = r.workflow_id"
						+ " AND d.kind = 'UPDATE' AND d.run_id = r.run_id AND d.stage IN ('ADMITTED', 'ACCEPTED')"),
				updateNotCompleted(status), runId);
		List<UUID> woken = new java.util.ArrayList<>();
		if (!chainGoesOn) {
			this.jdbc.query(q("SELECT parent_run_id, parent_seq FROM #.workflow_run WHERE run_id = ? AND parent_run_id"
					+ " IS NOT NULL"), (rs) -> {
						UUID parent = Sql.uuid(rs, "parent_run_id");
						String seq = String.valueOf(rs.getLong("parent_seq"));
						if (status == RunStatus.COMPLETED) {
							insertInbox(parent, InboxKind.CHILD_COMPLETED, seq, result, null);
						}
						else {
							insertInbox(parent, InboxKind.CHILD_FAILED, seq, failure, status.name());
						}
						woken.add(parent);
					}, runId);
		}
		String reason = "parent run " + runId + " closed: " + status;
		woken.addAll(this.jdbc.query(q("INSERT INTO #.inbox (run_id, kind, payload)"
				+ " SELECT run_id, CASE parent_close_policy WHEN 'TERMINATE' THEN 'TERMINATE' ELSE 'CANCEL' END, ?"
				+ " FROM #.workflow_run WHERE parent_run_id = ? AND status = 'RUNNING'"
				+ " AND parent_close_policy IN ('TERMINATE', 'REQUEST_CANCEL') RETURNING run_id"),
				(rs, n) -> Sql.uuid(rs, "run_id"), reason.getBytes(java.nio.charset.StandardCharsets.UTF_8), runId));
		return woken;
	}

	/**
	 * The failure recorded for updates still waiting when a run closes with the status.
	 */
	public static byte[] updateNotCompleted(RunStatus status) {
		return InternalJson.write(FailureInfo.application("WorkflowClosed",
				"the run closed (" + status + ") before the update completed", true, null, null, null));
	}

	/**
	 * Adds an item to an open run's inbox and marks the run as having pending input, in
	 * one statement that checks it is open: the item is inserted only if the run row was
	 * updated, so outside a transaction it is one round trip and one commit, and a closed
	 * run gets nothing.
	 * @return {@link InboxDelivery.Delivered} with the owner node, or
	 * {@link InboxDelivery#RUN_CLOSED}
	 */
	public InboxDelivery sendToInbox(UUID runId, InboxKind kind, String name, byte[] payload) {
		return sendToInbox(runId, kind, name, payload, null);
	}

	/** Like {@link #sendToInbox(UUID, InboxKind, String, byte[])}, with an update id. */
	public InboxDelivery sendToInbox(UUID runId, InboxKind kind, String name, byte[] payload, String messageId) {
		List<UUID> owner = this.jdbc.query(this.sendToInbox, (rs, n) -> Sql.uuid(rs, "owner_node"), runId,
				kind.stored(), name, payload, messageId);
		if (owner.isEmpty()) {
			return InboxDelivery.RUN_CLOSED;
		}
		return new InboxDelivery.Delivered(owner.get(0));
	}

}
