package dev.durable.workflow.internal.store;

import java.time.Instant;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the open runs of a namespace wait for, by the engine clock: for the test kit's
 * time skipping. A paused run waits for nothing: its timers and retries come due after
 * the unpause. The retry of a failed workflow task is one of these times: a caller
 * waiting for the run's result or an update's outcome waits for that retry as for a
 * timer.
 */
public final class WakeTimes {

	private final JdbcTemplate jdbc;

	private final String schema;

	public WakeTimes(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = Sql.checkIdentifier(schema);
	}

	/**
	 * Whether something is runnable at {@code now}: an open run with unseen input or a
	 * due wake time (timer, start delay, timeout, task retry), a due activity attempt, or
	 * a due schedule.
	 */
	public boolean anyDue(String namespace, Instant now) {
		Boolean due = this.jdbc.queryForObject(Sql.q(this.schema,
				"SELECT EXISTS (SELECT 1 FROM #.workflow_run r"
						+ " WHERE r.namespace = ? AND r.status = 'RUNNING' AND r.paused_at IS NULL"
						+ " AND ((r.task_attempt = 0 AND (r.pending_input"
						+ " OR EXISTS (SELECT 1 FROM #.inbox i WHERE i.run_id = r.run_id))) OR r.next_wake_at <= ?))"
						// a due attempt: inline, or on a task queue that some node of the
						// namespace serves
						+ " OR EXISTS (SELECT 1 FROM #.activity a JOIN #.workflow_run r ON r.run_id = a.run_id"
						+ " WHERE r.namespace = ? AND r.status = 'RUNNING' AND r.paused_at IS NULL AND a.next_attempt_at <= ?"
						+ " AND a.state = 'SCHEDULED' AND " + ActivityPauses.activityNotPaused("a.run_id", "a.seq")
						+ " AND (a.task_queue IS NULL OR EXISTS (SELECT 1 FROM #.node n WHERE n.namespace = r.namespace"
						+ " AND 'activity:' || a.task_queue = ANY(n.task_queues))))"
						+ " OR EXISTS (SELECT 1 FROM #.schedule s WHERE s.namespace = ? AND NOT s.paused"
						+ " AND s.next_run_at <= ?)"),
				Boolean.class, namespace, Sql.ts(now), namespace, Sql.ts(now), namespace, Sql.ts(now));
		return Boolean.TRUE.equals(due);
	}

	/**
	 * The earliest time after {@code now} at which something becomes runnable: a wake
	 * time of an open run (timer, start delay, timeout, or the retry of its failed
	 * workflow task, which the failure records as its wake time), an activity retry, or a
	 * schedule's next firing.
	 * @return the time, or {@code null} when nothing waits for a time
	 */
	public Instant next(String namespace, Instant now) {
		return this.jdbc.query(Sql.q(this.schema, "SELECT min(t) AS next FROM ("
				// whatever the task attempt: a failing task's retry time is its wake time
				// (a run waiting
				// in a flow-control queue has none)
				+ "SELECT min(next_wake_at) AS t FROM #.workflow_run WHERE namespace = ? AND status = 'RUNNING'"
				+ " AND next_wake_at > ? AND paused_at IS NULL"
				+ " UNION ALL SELECT min(a.next_attempt_at) FROM #.activity a JOIN #.workflow_run r"
				+ " ON r.run_id = a.run_id WHERE r.namespace = ? AND r.status = 'RUNNING' AND r.paused_at IS NULL"
				+ " AND a.next_attempt_at > ? AND " + ActivityPauses.activityNotPaused("a.run_id", "a.seq")
				// the deadlines of task-queue attempts, which a sweep enforces
				+ " UNION ALL SELECT min(d) FROM (SELECT LEAST(a.close_deadline, CASE WHEN a.state = 'SCHEDULED'"
				+ " THEN a.next_attempt_at + a.schedule_to_start_ms * interval '1 millisecond'"
				+ " ELSE a.started_at + a.start_to_close_ms * interval '1 millisecond' END) AS d FROM #.activity a"
				+ " WHERE a.task_queue IS NOT NULL AND a.namespace = ? AND " + RunPauses.ATTEMPT_DEADLINES_COUNT
				+ " AND (a.state <> 'SCHEDULED' OR " + ActivityPauses.activityNotPaused("a.run_id", "a.seq") + ")"
				+ ") deadlines WHERE d > ?"
				+ " UNION ALL SELECT min(next_run_at) FROM #.schedule WHERE namespace = ? AND NOT paused"
				+ " AND next_run_at > ?) x"), (rs) -> rs.next() ? Sql.instant(rs, "next") : null, namespace,
				Sql.ts(now), namespace, Sql.ts(now), namespace, Sql.ts(now), namespace, Sql.ts(now));
	}

}
