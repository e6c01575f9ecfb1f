package dev.durable.workflow.internal.taskqueue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.PreparedStatementSetter;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.failure.TimeoutType;
import dev.durable.workflow.internal.activity.RetryDecision;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.store.ActivityPauses;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.RunPauses;
import dev.durable.workflow.internal.store.Sql;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * Enforces, from the database, what no single worker can be trusted with: the timeouts of
 * task-queue attempts (schedule-to-start while waiting; start-to-close and heartbeat
 * while running, on whichever node; schedule-to-close always) and the attempts of workers
 * that died (their node stopped heartbeating for {@code dead-after}). Any worker node
 * sweeps; the rows it acts on are locked ({@code SKIP LOCKED}), so two sweeps never
 * decide one attempt twice, and a worker still running a swept attempt finds its token
 * gone and stops it.
 */
final class SweepActivities {

	private static final Logger log = LoggerFactory.getLogger(SweepActivities.class);

	private static final int BATCH = 100;

	/**
	 * Why a row is swept; each arm reads only columns of the row, and the node table for
	 * the last.
	 */
	private static final String REASON = "CASE WHEN a.close_deadline <= ? THEN 'SCHEDULE_TO_CLOSE'"
			+ " WHEN a.state = 'SCHEDULED' AND a.schedule_to_start_ms IS NOT NULL"
			+ " AND a.next_attempt_at + a.schedule_to_start_ms * interval '1 millisecond' <= ? THEN 'SCHEDULE_TO_START'"
			+ " WHEN a.state <> 'SCHEDULED' AND a.start_to_close_ms IS NOT NULL"
			+ " AND a.started_at + a.start_to_close_ms * interval '1 millisecond' <= ? THEN 'START_TO_CLOSE'"
			+ " WHEN a.state <> 'SCHEDULED' AND a.heartbeat_timeout_ms IS NOT NULL"
			+ " AND COALESCE(a.last_heartbeat_at, a.started_at) + a.heartbeat_timeout_ms * interval '1 millisecond' <= ?"
			+ " THEN 'HEARTBEAT'"
			+ " WHEN a.state = 'STARTED' AND NOT EXISTS (SELECT 1 FROM #.node n WHERE n.node_id = a.claimed_by"
			+ " AND n.incarnation = a.claimed_incarnation AND n.last_heartbeat > now() - make_interval(secs => ?))"
			+ " THEN 'NODE_LOST' END";

	private final JdbcTemplate jdbc;

	private final TransactionTemplate tx;

	private final String schema;

	private final ActivityOutcomes outcomes;

	private final AttemptObserver observer;

	private final Duration deadAfter;

	SweepActivities(JdbcTemplate jdbc, TransactionTemplate tx, String schema, ActivityOutcomes outcomes,
			AttemptObserver observer, Duration deadAfter) {
		this.jdbc = jdbc;
		this.tx = tx;
		this.schema = schema;
		this.outcomes = outcomes;
		this.observer = observer;
		this.deadAfter = deadAfter;
	}

	private record Expired(UUID runId, long seq, String workflowId, String activityType, ActivityOptions options,
			int attempt, Instant scheduledAt, byte[] heartbeatDetails, String reason) {
	}

	/**
	 * One batch.
	 * @return the runs whose inbox got an outcome, with their owners, to wake (owner may
	 * be null)
	 */
	List<ActivityOutcomes.Delivered> sweep(String namespace, Instant now) {
		List<ActivityOutcomes.Delivered> woken = new ArrayList<>();
		this.tx.executeWithoutResult((status) -> {
			for (Expired row : expired(namespace, now)) {
				ActivityOutcomes.Delivered delivered = decide(row, now);
				if (delivered != null && delivered.applied()) {
					woken.add(delivered);
				}
			}
		});
		return woken;
	}

	private List<Expired> expired(String namespace, Instant now) {
		String sql = Sql.q(this.schema,
				"SELECT * FROM (SELECT a.run_id, a.seq, a.workflow_id, a.activity_type, a.options,"
						+ " a.attempt, a.scheduled_at, a.heartbeat_details, " + REASON + " AS reason FROM #.activity a"
						+ " WHERE a.task_queue IS NOT NULL AND a.namespace = ? AND " + RunPauses.ATTEMPT_DEADLINES_COUNT
						// a paused activity's waiting attempt: its deadlines act after
						// the unpause
						+ " AND (a.state <> 'SCHEDULED' OR " + ActivityPauses.activityNotPaused("a.run_id", "a.seq")
						+ ")" + ") x WHERE reason IS NOT NULL LIMIT " + BATCH + " FOR UPDATE SKIP LOCKED");
		return this.jdbc.query(sql, (PreparedStatementSetter) (ps) -> {
			for (int i = 1; i <= 4; i++) {
				ps.setTimestamp(i, Sql.ts(now));
			}
			ps.setDouble(5, this.deadAfter.toMillis() / 1000.0);
			ps.setString(6, namespace);
		}, (rs, n) -> new Expired(Sql.uuid(rs, "run_id"), rs.getLong("seq"), rs.getString("workflow_id"),
				rs.getString("activity_type"), InternalJson.read(rs.getBytes("options"), ActivityOptions.class),
				rs.getInt("attempt"), Sql.instant(rs, "scheduled_at"), rs.getBytes("heartbeat_details"),
				rs.getString("reason")));
	}

	private ActivityOutcomes.Delivered decide(Expired row, Instant now) {
		FailureInfo failure = switch (row.reason()) {
			case "NODE_LOST" -> FailureInfo.application("NodeLost",
					"the node running attempt " + row.attempt() + " stopped heartbeating before reporting its outcome",
					false, null, null, null);
			default -> {
				TimeoutType type = TimeoutType.valueOf(row.reason());
				yield FailureInfo.timeout(type, "activity " + row.activityType() + " attempt " + row.attempt()
						+ " exceeded its " + type.name().toLowerCase().replace('_', '-') + " timeout", null);
			}
		};
		// what an operator set meanwhile: options (the row holds them), a new round, a
		// reset
		ActivityPauses.Control control = this.outcomes.pauses().control(row.runId(), row.seq());
		RetryDecision decision = RetryDecision.after(row.options(), row.activityType(), row.seq(), row.attempt(),
				(control != null) ? control.attemptBase() : 0, row.scheduledAt(), failure, now);
		ActivityInfo info = new ActivityInfo(row.workflowId(), row.runId(), row.seq(), row.activityType(),
				row.attempt(), row.scheduledAt());
		String type = (failure.timeoutType() != null) ? failure.timeoutType().name() : failure.type();
		this.observer.failed(info, type, decision.retries());
		if (decision.retries()) {
			log.info("Activity {} (seq {}) of run {}: {}; retrying at {}", row.activityType(), row.seq(), row.runId(),
					failure.summary(), decision.nextAttemptAt());
			ActivityOutcomes.Delivered paused = null;
			if (decision.pauses()) {
				RunPauses.Paused made = this.outcomes.pauses()
					.pauseExhausted(row.runId(), row.seq(), decision.pausedAfter(), now);
				paused = new ActivityOutcomes.Delivered(made.changed(), row.runId(), made.owner());
			}
			boolean reset = control != null && control.resetPending();
			this.outcomes.retry(row.runId(), row.seq(), null, row.attempt(), reset ? 1 : row.attempt() + 1,
					reset ? now : decision.nextAttemptAt(), InternalJson.write(failure), row.heartbeatDetails(),
					reset && control.dropDetails());
			if (reset) {
				this.outcomes.pauses().resetTaken(row.runId(), row.seq());
			}
			return paused;
		}
		log.info("Activity {} (seq {}) of run {} failed: {}", row.activityType(), row.seq(), row.runId(),
				failure.summary());
		return this.outcomes.deliver(row.runId(), row.seq(), null, InboxKind.ACTIVITY_FAILED,
				InternalJson.write(decision.finalFailure()));
	}

}
