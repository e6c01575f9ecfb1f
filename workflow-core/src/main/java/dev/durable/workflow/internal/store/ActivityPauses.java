package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * What an operator, or a retry policy that pauses when its attempts are exhausted, set
 * for one pending activity of a run: a pause, options for the attempts to come, a reset.
 * One row of {@code activity_control} per activity acted on; every claim of a task-queue
 * attempt, the sweep's schedule-to-start check and the inline executor's launch of a
 * retry read it ({@link #activityNotPaused}), so a pause holds on every node at once and
 * survives restarts. The run's history records each operation through the run's inbox (an
 * {@link InboxKind#EVENT} item its next workflow task takes in), which the workflow's
 * replay ignores.
 */
public final class ActivityPauses {

	private final JdbcTemplate jdbc;

	private final String schema;

	public ActivityPauses(JdbcTemplate jdbc, String schema) {
		this.jdbc = jdbc;
		this.schema = Sql.checkIdentifier(schema);
	}

	/**
	 * The condition that the activity in the given columns is not paused; its control
	 * row, when it has one, is found by primary key. Written with {@code #.} for the
	 * schema.
	 */
	public static String activityNotPaused(String runIdColumn, String seqColumn) {
		return "NOT EXISTS (SELECT 1 FROM #.activity_control ac WHERE ac.run_id = " + runIdColumn + " AND ac.seq = "
				+ seqColumn + " AND ac.paused_at IS NOT NULL)";
	}

	private String q(String sql) {
		return Sql.q(this.schema, sql);
	}

	/**
	 * An activity's control row.
	 *
	 * @param pausedAt paused since, or {@code null}
	 * @param pauseReason why, or {@code null}
	 * @param pausedAfter the attempts made when the retry policy paused it, or
	 * {@code null} when it did not
	 * @param options the options an operator set for the attempts to come, or
	 * {@code null}
	 * @param attemptBase the attempts of earlier rounds: the retry policy counts the
	 * attempts after them
	 * @param resetPending a reset came while an attempt ran: the next attempt is attempt
	 * 1, at once
	 * @param dropDetails that reset drops the heartbeat details
	 */
	public record Control(@Nullable Instant pausedAt, @Nullable String pauseReason, @Nullable Integer pausedAfter,
			@Nullable ActivityOptions options, int attemptBase, boolean resetPending, boolean dropDetails) {

		public boolean paused() {
			return this.pausedAt != null;
		}

		/** The options the attempts to come run with. */
		public ActivityOptions options(ActivityOptions scheduled) {
			return (this.options != null) ? this.options : scheduled;
		}

	}

	private static final String COLUMNS = "seq, paused_at, pause_reason, paused_after, options, attempt_base,"
			+ " reset_pending, drop_details";

	private static Control read(java.sql.ResultSet rs) throws java.sql.SQLException {
		byte[] options = rs.getBytes("options");
		int after = rs.getInt("paused_after");
		return new Control(Sql.instant(rs, "paused_at"), rs.getString("pause_reason"), rs.wasNull() ? null : after,
				(options != null) ? InternalJson.read(options, ActivityOptions.class) : null, rs.getInt("attempt_base"),
				rs.getBoolean("reset_pending"), rs.getBoolean("drop_details"));
	}

	/** The activity's control row, or {@code null} when nobody acted on it. */
	public @Nullable Control control(UUID runId, long seq) {
		List<Control> found = this.jdbc.query(
				q("SELECT " + COLUMNS + " FROM #.activity_control WHERE run_id = ? AND seq = ?"), (rs, n) -> read(rs),
				runId, seq);
		return found.isEmpty() ? null : found.get(0);
	}

	/** The control rows of the run's activities, by seq. */
	public Map<Long, Control> controls(UUID runId) {
		Map<Long, Control> found = new HashMap<>();
		this.jdbc.query(q("SELECT " + COLUMNS + " FROM #.activity_control WHERE run_id = ?"), (rs) -> {
			found.put(rs.getLong("seq"), read(rs));
		}, runId);
		return found;
	}

	/** Whether the activity is paused now. */
	public boolean isPaused(UUID runId, long seq) {
		Control control = control(runId, seq);
		return control != null && control.paused();
	}

	/**
	 * Pauses the activity (a paused one stays as it was paused).
	 * @param pausedAfter the attempts the retry policy made when it pauses it, or
	 * {@code null} for an operator's pause
	 * @return whether it changed
	 */
	public boolean pause(UUID runId, long seq, @Nullable String reason, @Nullable Integer pausedAfter, Instant now) {
		Boolean changed = this.jdbc.query(
				q("INSERT INTO #.activity_control AS c (run_id, seq, paused_at, pause_reason,"
						+ " paused_after) VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_id, seq) DO UPDATE SET"
						+ " paused_at = EXCLUDED.paused_at, pause_reason = EXCLUDED.pause_reason,"
						+ " paused_after = EXCLUDED.paused_after WHERE c.paused_at IS NULL RETURNING true"),
				(rs) -> rs.next() ? Boolean.TRUE : Boolean.FALSE, runId, seq, Sql.ts(now), reason, pausedAfter);
		return Boolean.TRUE.equals(changed);
	}

	/**
	 * Unpauses the activity. One the retry policy paused gets a new round of attempts:
	 * its policy counts the attempts after those made so far.
	 * @return whether it changed
	 */
	public boolean unpause(UUID runId, long seq) {
		return this.jdbc.update(q("UPDATE #.activity_control SET paused_at = NULL, pause_reason = NULL,"
				+ " attempt_base = COALESCE(paused_after, attempt_base), paused_after = NULL"
				+ " WHERE run_id = ? AND seq = ? AND paused_at IS NOT NULL"), runId, seq) == 1;
	}

	/**
	 * Resets the activity's attempts and lifts its pause. A task-queue activity whose
	 * attempt waits gets attempt 1 at once in its row; otherwise (an attempt runs, or an
	 * inline activity, whose row only its owner writes) the reset is marked pending: the
	 * next attempt, after the running one fails or when the run's owner takes the reset
	 * in, is attempt 1, at once.
	 * @return whether the row of a waiting task-queue attempt was reset now
	 */
	public boolean reset(UUID runId, long seq, boolean keepDetails, Instant now) {
		boolean done = this.jdbc.update(
				q("UPDATE #.activity SET attempt = 1, next_attempt_at = ?,"
						+ " heartbeat_details = CASE WHEN ? THEN heartbeat_details END"
						+ " WHERE run_id = ? AND seq = ? AND task_queue IS NOT NULL AND state = 'SCHEDULED'"),
				Sql.ts(now), keepDetails, runId, seq) == 1;
		this.jdbc.update(q("INSERT INTO #.activity_control AS c (run_id, seq, reset_pending, drop_details)"
				+ " VALUES (?, ?, ?, ?) ON CONFLICT (run_id, seq) DO UPDATE SET paused_at = NULL, pause_reason = NULL,"
				+ " paused_after = NULL, attempt_base = 0, reset_pending = EXCLUDED.reset_pending,"
				+ " drop_details = EXCLUDED.drop_details"), runId, seq, !done, !done && !keepDetails);
		return done;
	}

	/**
	 * The next attempt took a pending reset in: the attempts count from it on.
	 */
	public void resetTaken(UUID runId, long seq) {
		resetTaken(runId, seq, false);
	}

	/**
	 * The next attempt of an inline activity took a pending reset in, recorded in its
	 * row: the attempts count from it on, and its heartbeat details are dropped when the
	 * reset said so.
	 */
	public void resetTaken(UUID runId, long seq, boolean dropDetails) {
		if (dropDetails) {
			this.jdbc.update(q("UPDATE #.activity SET heartbeat_details = NULL WHERE run_id = ? AND seq = ?"), runId,
					seq);
		}
		this.jdbc.update(q("UPDATE #.activity_control SET reset_pending = false, drop_details = false, attempt_base = 0"
				+ " WHERE run_id = ? AND seq = ?"), runId, seq);
	}

	/**
	 * Sets the activity's options for the attempts to come: in its control row, and in
	 * its row when it has one (a task-queue row's timeout columns too, which the sweep
	 * enforces, for a running attempt too). A running inline attempt's timeouts, armed
	 * when it started, stay as they were.
	 */
	public void updateOptions(UUID runId, long seq, ActivityOptions options) {
		byte[] json = InternalJson.write(options);
		this.jdbc.update(q("INSERT INTO #.activity_control AS c (run_id, seq, options) VALUES (?, ?, ?)"
				+ " ON CONFLICT (run_id, seq) DO UPDATE SET options = EXCLUDED.options"), runId, seq, json);
		this.jdbc.update(
				q("UPDATE #.activity SET options = ?, schedule_to_start_ms = ?, start_to_close_ms = ?,"
						+ " heartbeat_timeout_ms = ?, close_deadline = CASE WHEN ?::bigint IS NULL THEN NULL"
						+ " ELSE scheduled_at + ?::bigint * interval '1 millisecond' END WHERE run_id = ? AND seq = ?"),
				json, millis(options.scheduleToStartTimeout()), millis(options.startToCloseTimeout()),
				millis(options.heartbeatTimeout()), millis(options.scheduleToCloseTimeout()),
				millis(options.scheduleToCloseTimeout()), runId, seq);
	}

	private static Long millis(java.time.Duration duration) {
		return (duration != null) ? duration.toMillis() : null;
	}

	/** The reason an activity paused by its retry policy shows. */
	public static String exhaustedReason(int attempts) {
		return "activity paused after " + attempts + ((attempts == 1) ? " attempt" : " attempts")
				+ ": its retry policy's attempts are exhausted";
	}

	/**
	 * The retry policy pauses the activity, its attempts exhausted: paused, and recorded
	 * in the run's history.
	 * @return the run's owner to wake, when the run is open and the activity was not
	 * paused yet
	 */
	public RunPauses.Paused pauseExhausted(UUID runId, long seq, int attempts, Instant now) {
		String reason = exhaustedReason(attempts);
		if (!pause(runId, seq, reason, attempts, now)) {
			return new RunPauses.Paused(null, false);
		}
		return record(runId, Event.activityPaused(seq, reason, Event.ActivityPaused.BY_RETRY_POLICY));
	}

	/**
	 * The owner of the run takes a pending reset in for an inline activity whose retry
	 * waits: attempt 1, due at once; fenced by the owner and epoch.
	 * @return whether the row was reset
	 */
	public boolean resetInline(UUID runId, long seq, boolean dropDetails, Instant now, UUID node, long epoch) {
		boolean done = this.jdbc.update(q("UPDATE #.activity a SET attempt = 1, next_attempt_at = ?,"
				+ " heartbeat_details = CASE WHEN ? THEN NULL ELSE a.heartbeat_details END FROM #.workflow_run r"
				+ " WHERE a.run_id = ? AND a.seq = ? AND a.task_queue IS NULL AND a.state = 'SCHEDULED'"
				+ " AND r.run_id = a.run_id AND r.owner_node = ? AND r.epoch = ?"), Sql.ts(now), dropDetails, runId,
				seq, node, epoch) == 1;
		if (done) {
			resetTaken(runId, seq, false);
		}
		return done;
	}

	/**
	 * Hands an event about one of its activities to the run's history: an inbox item the
	 * run's next workflow task records, marking the open run as having input.
	 * @return whether the run is open, and its owner (to wake), or {@code null}
	 */
	public RunPauses.Paused record(UUID runId, Event event) {
		List<RunPauses.Paused> owners = this.jdbc.query(
				q("WITH ins AS (INSERT INTO #.inbox (run_id, kind, payload)"
						+ " VALUES (?, ?, ?) RETURNING run_id) UPDATE #.workflow_run r SET pending_input = true,"
						+ " inbox_seq = inbox_seq + 1 FROM ins WHERE r.run_id = ins.run_id AND " + Sql.open("r")
						+ " RETURNING r.owner_node"),
				(rs, n) -> new RunPauses.Paused(Sql.uuid(rs, "owner_node"), true), runId, InboxKind.EVENT.stored(),
				EventCodec.write(List.of(event)));
		return owners.isEmpty() ? new RunPauses.Paused(null, false) : owners.get(0);
	}

}
