package dev.durable.workflow.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.Event.ActivityScheduled;
import dev.durable.workflow.internal.history.Event.SignalReceived;
import dev.durable.workflow.internal.history.Event.WorkflowStarted;
import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.history.ResetPlan;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.UuidV7;

/**
 * Resets a workflow to a workflow-task boundary, in the caller's transaction: terminates
 * the current run, starts a new run of the same workflow id whose history is the tasks
 * before the boundary, recreates the timers and activities pending there and re-applies
 * the signals received after it. Children started before the boundary move to the new
 * run; children started after it are closed as the old run's close policy says (TERMINATE
 * at once, so the new run may start them again under the same id).
 */
public final class ResetRepository {

	private final JdbcTemplate jdbc;

	private final RunRepository runs;

	private final TaskRepository tasks;

	private final String schema;

	public ResetRepository(RunRepository runs, TaskRepository tasks) {
		this.jdbc = runs.jdbc();
		this.schema = runs.schema();
		this.runs = runs;
		this.tasks = tasks;
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * What a reset did.
	 *
	 * @param runId the new run
	 * @param wake other runs that got inbox items
	 * @param carriesHistory whether the new run starts with kept tasks (else its first
	 * task starts it)
	 * @param closedBase whether the reset terminated the run it started from
	 */
	public record Reset(UUID runId, List<UUID> wake, boolean carriesHistory, boolean closedBase) {
	}

	/**
	 * Resets the latest run of a workflow id; must run inside a transaction.
	 * @param run the run to reset (must be the latest run of its workflow id)
	 * @param eventId the event whose workflow task runs again
	 * @param reason why, for the terminated run's history
	 * @param now the reset time
	 * @throws IllegalArgumentException when the event is not a workflow-task event of the
	 * run
	 * @throws IllegalStateException when the run is no longer the latest one
	 */
	public Reset reset(RunRow run, long eventId, String reason, Instant now) {
		this.jdbc.query(q("SELECT run_id FROM #.workflow_run WHERE run_id = ? FOR UPDATE"), (rs) -> {
		}, run.runId());
		RunRow base = this.runs.find(run.runId()).orElseThrow();
		RunRow latest = this.runs.findLatest(base.namespace(), base.workflowId()).orElseThrow();
		if (!latest.runId().equals(base.runId())) {
			throw new IllegalStateException("Run " + base.runId() + " is not the latest run of workflow '"
					+ base.workflowId() + "' (the latest is " + latest.runId() + "); reset the latest run");
		}
		List<TaskRecord> history = this.tasks.history(base.runId());
		String seed = history.isEmpty() ? base.runId().toString()
				: history.get(0)
					.events()
					.stream()
					.map((e) -> (e instanceof WorkflowStarted started) ? started.seed() : null)
					.filter(Objects::nonNull)
					.findFirst()
					.orElse(base.runId().toString());
		ResetPlan plan = ResetPlan.of(history, eventId, seed);
		List<InboxItem> inbox = this.tasks.inbox(base.runId());
		UUID runId = UuidV7.next(now);
		List<UUID> wake = new ArrayList<>();
		// the parent link moves to the new run, so closing the old one tells the parent
		// nothing
		Object[] parent = this.jdbc.queryForObject(
				q("SELECT parent_run_id, parent_seq, parent_close_policy" + " FROM #.workflow_run WHERE run_id = ?"),
				(rs, n) -> new Object[] { rs.getObject(1), rs.getObject(2), rs.getString(3) }, base.runId());
		this.jdbc.update(q("UPDATE #.workflow_run SET parent_run_id = NULL WHERE run_id = ?"), base.runId());
		this.jdbc.update(q("UPDATE #.workflow_run SET parent_run_id = ? WHERE parent_run_id = ? AND status = 'RUNNING'"
				+ " AND parent_seq = ANY(?)"), (org.springframework.jdbc.core.PreparedStatementSetter) (ps) -> {
					ps.setObject(1, runId);
					ps.setObject(2, base.runId());
					ps.setArray(3, ps.getConnection().createArrayOf("bigint", plan.keptChildren().toArray()));
				});
		String why = "reset to event " + eventId + ((reason != null) ? ": " + reason : "");
		for (UUID child : this.jdbc.query(
				q("SELECT run_id FROM #.workflow_run WHERE parent_run_id = ?"
						+ " AND status = 'RUNNING' AND parent_close_policy = 'TERMINATE'"),
				(rs, n) -> Sql.uuid(rs, "run_id"), base.runId())) {
			List<UUID> woken = this.runs.terminateAndWake(child, "parent workflow " + why, now);
			if (woken != null) {
				wake.addAll(woken);
			}
		}
		if (base.isOpen()) {
			List<UUID> woken = this.runs.terminateAndWake(base.runId(), why, now);
			if (woken != null) {
				wake.addAll(woken);
			}
		}
		wake.remove(base.runId());
		insertRun(base, runId, plan, parent, now);
		this.runs.setNextRun(base.runId(), runId);
		handOver(runId, plan, inbox);
		return new Reset(runId, wake, !plan.fromScratch(), base.isOpen());
	}

	private void insertRun(RunRow base, UUID runId, ResetPlan plan, Object[] parent, Instant now) {
		Instant runDeadline = (base.runDeadline() != null)
				? now.plus(Duration.between(base.createdAt(), base.runDeadline())) : null;
		this.runs.insert(new NewRun(runId, base.namespace(), base.workflowId(), base.workflowType(), base.taskQueue(),
				null, this.runs.input(base.runId()), null, now, null, runDeadline, base.executionDeadline(),
				this.runs.chain(base.runId()), base.attempt())
			.withAttributes(plan.memo(), plan.searchAttributes()));
		this.jdbc.update(
				q("UPDATE #.workflow_run SET history_seq = ?, has_activities = ?, parent_run_id = ?,"
						+ " parent_seq = ?, parent_close_policy = ? WHERE run_id = ?"),
				plan.kept().size(), plan.activities().stream().anyMatch((a) -> !a.options().onTaskQueue()), parent[0],
				parent[1], parent[2], runId);
		OutputRepository outputs = new OutputRepository(this.jdbc, this.schema);
		for (TaskRecord record : plan.kept()) {
			this.jdbc.update(q("INSERT INTO #.history (run_id, seq, created_at, events) VALUES (?, ?, ?, ?)"), runId,
					record.seq(), Sql.ts(record.time()), EventCodec.write(record.events()));
			// the events and stream values of the kept history are the new run's too
			outputs.write(runId, base.namespace(), base.workflowId(), record.time(),
					record.events().stream().filter((e) -> e.type().isOutput()).toList());
		}
		plan.timers()
			.forEach((seq, fireAt) -> this.jdbc.update(q("INSERT INTO #.timer (run_id, seq, fire_at) VALUES (?, ?, ?)"),
					runId, seq, Sql.ts(fireAt)));
		// attempt 0: scheduled and never attempted, so the first attempt is not counted
		// as lost; an
		// activity on a task queue is queued again, due now
		List<StoredActivity> queued = new ArrayList<>();
		for (ActivityScheduled scheduled : plan.activities()) {
			if (scheduled.options().onTaskQueue()) {
				queued.add(new StoredActivity(runId, scheduled.seq(), scheduled.activityType(), scheduled.args(),
						scheduled.options(), 1, now, now, null, null));
				continue;
			}
			this.jdbc.update(
					q("INSERT INTO #.activity (run_id, seq, activity_type, input, options, attempt,"
							+ " scheduled_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)"),
					runId, scheduled.seq(), scheduled.activityType(), scheduled.args(),
					InternalJson.write(scheduled.options()), Sql.ts(now), Sql.ts(now));
		}
		new ActivityRepository(this.jdbc, this.schema).insertQueued(base.namespace(), base.workflowId(), queued);
	}

	/**
	 * The new run's inbox: answers to kept commands that came after the boundary, then
	 * the signals received after it, then what the old run had not taken yet (signals,
	 * answers to kept commands).
	 */
	private void handOver(UUID runId, ResetPlan plan, List<InboxItem> inbox) {
		Set<Long> keptCommands = new HashSet<>(plan.keptCommands());
		for (Event answer : plan.answers()) {
			this.runs.insertInbox(runId, InboxKind.EVENT, null, EventCodec.write(List.of(answer)), null);
		}
		for (SignalReceived signal : plan.signals()) {
			this.runs.insertInbox(runId, InboxKind.SIGNAL, signal.name(), signal.payload(), null);
		}
		for (InboxItem item : inbox) {
			boolean handedOver = switch (item.kind()) {
				case CHILD_STARTED, CHILD_START_FAILED, CHILD_FAILED, CHILD_COMPLETED, EXTERNAL_DELIVERED ->
					keptCommands.contains(Long.parseLong(item.name()));
				case SIGNAL, EVENT -> true;
				// the kept activities run again: answers and retries of the old run's
				// attempts are not theirs
				case UPDATE, CANCEL, TERMINATE, ACTIVITY_COMPLETED, ACTIVITY_FAILED, ACTIVITY_RETRY -> false;
			};
			if (handedOver) {
				this.runs.insertInbox(runId, item.kind(), item.name(), item.payload(), item.messageId());
			}
		}
		this.jdbc.update(
				q("UPDATE #.workflow_run SET inbox_seq = inbox_seq + 1, pending_input = true WHERE run_id = ?"), runId);
	}

}
