package dev.durable.workflow.internal.commit;

import java.sql.PreparedStatement;
import java.sql.SQLException;

import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.store.Sql;

/**
 * The first parts of {@link TaskCommitStatement}'s statement for a start inserted with
 * its first task: the run row, its payload and its visibility row, in the state that task
 * leaves them in. The parts after them (the history, the timers) are the task commit's
 * own.
 */
final class StartedRunInsert {

	private StartedRunInsert() {
	}

	/**
	 * The parts that insert a run in the state its first task leaves it in. An open run
	 * of the id makes them insert nothing: for a run that stays open the unique index on
	 * open runs does it ({@code ON CONFLICT DO NOTHING}, which waits for a start of the
	 * id still being written). A run its first task closes is inserted closed, which that
	 * index does not cover, so the insert looks for an open run of the id (through that
	 * index). It sees every start committed before the statement began; a start of the id
	 * not yet committed then is not seen, and both stand, as if this run had started and
	 * closed before the other started (a start that allows a duplicate id may follow a
	 * closed run): the two calls overlapped, so either order is theirs.
	 */
	static void append(StringBuilder sql, boolean closes) {
		sql.append("WITH u AS (INSERT INTO #.workflow_run (run_id, namespace, workflow_id, workflow_type, task_queue,"
				+ " status, owner_node, epoch, history_seq, next_wake_at, has_activities, pending_input,"
				+ " unfinished_handlers, created_at, run_deadline, execution_deadline, attempt, closed_at, build_id,"
				+ " pinned, ramp_bucket)");
		if (closes) {
			sql.append(" SELECT ?::uuid, ?, ?, ?, ?, ?, ?::uuid, ?::bigint, ?::int, ?::timestamptz, ?::boolean, false,"
					+ " ?::int, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::int, ?::timestamptz, ?, ?::boolean,"
					+ " ?::smallint WHERE NOT EXISTS (SELECT 1 FROM #.workflow_run o WHERE o.namespace = ? AND o.workflow_id = ?"
					+ " AND o.status = 'RUNNING')");
		}
		else {
			sql.append(" VALUES (?, ?, ?, ?, ?, 'RUNNING', ?, ?, ?, ?, ?, false, ?, ?, ?, ?, ?, NULL, ?, ?, ?)"
					+ " ON CONFLICT (namespace, workflow_id) WHERE status = 'RUNNING' DO NOTHING");
		}
		sql.append(" RETURNING run_id, namespace, workflow_id, parent_run_id, parent_seq)");
		if (closes) {
			sql.append(", p AS (INSERT INTO #.run_payload (run_id, input, options, result, failure)"
					+ " SELECT run_id, ?, ?, ?, ? FROM u)"
					+ ", v AS (INSERT INTO #.visibility (run_id, namespace, workflow_id, workflow_type, status,"
					+ " start_time, close_time) SELECT run_id, ?, ?, ?, ?, ?, ? FROM u)");
		}
		else {
			sql.append(", p AS (INSERT INTO #.run_payload (run_id, input, options) SELECT run_id, ?, ? FROM u)"
					+ ", v AS (INSERT INTO #.visibility (run_id, namespace, workflow_id, workflow_type, status, start_time)"
					+ " SELECT run_id, ?, ?, ?, 'RUNNING', ? FROM u)");
		}
	}

	/**
	 * Binds the parameters of {@link #append}, from the one numbered {@code from};
	 * returns the next.
	 */
	static int bind(PreparedStatement ps, int from, boolean closes, NewRun run, TaskCommit c) throws SQLException {
		int i = from;
		ps.setObject(i++, run.runId());
		ps.setString(i++, run.namespace());
		ps.setString(i++, run.workflowId());
		ps.setString(i++, run.workflowType());
		ps.setString(i++, run.taskQueue());
		if (closes) {
			ps.setString(i++, RunStatus.column(c.close().status()));
		}
		ps.setObject(i++, run.owner());
		ps.setLong(i++, c.fence().epoch());
		ps.setInt(i++, c.history().historySeq() + (c.recordsHistory() ? 1 : 0));
		ps.setTimestamp(i++, Sql.ts(c.timers().nextWakeAt()));
		ps.setBoolean(i++, c.activities().inlinePending());
		ps.setInt(i++, c.outputs().unfinishedHandlers());
		ps.setTimestamp(i++, Sql.ts(run.createdAt()));
		ps.setTimestamp(i++, Sql.ts(run.runDeadline()));
		ps.setTimestamp(i++, Sql.ts(run.executionDeadline()));
		ps.setInt(i++, run.attempt());
		if (closes) {
			ps.setTimestamp(i++, Sql.ts(c.history().time()));
		}
		ps.setString(i++, run.build().buildId());
		ps.setBoolean(i++, run.build().pinned());
		ps.setInt(i++, run.build().rampBucket());
		if (closes) {
			ps.setString(i++, run.namespace());
			ps.setString(i++, run.workflowId());
		}
		ps.setBytes(i++, run.input());
		ps.setBytes(i++, RunRepository.chainBytes(run));
		if (closes) {
			ps.setBytes(i++, c.close().result());
			ps.setBytes(i++, c.close().failure());
		}
		ps.setString(i++, run.namespace());
		ps.setString(i++, run.workflowId());
		ps.setString(i++, run.workflowType());
		if (closes) {
			ps.setString(i++, RunStatus.column(c.close().status()));
		}
		ps.setTimestamp(i++, Sql.ts(run.createdAt()));
		if (closes) {
			ps.setTimestamp(i++, Sql.ts(c.history().time()));
		}
		return i;
	}

}
