package dev.durable.workflow.internal.inline;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.activity.RetryDecision;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.store.ActivityPauses;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * A failed attempt of an inline activity: the retry policy decides, and a retry is
 * persisted (fenced by the run's epoch) before it is scheduled; a final failure is handed
 * to the run. When the database cannot take the retry (restarting, connection cut),
 * recording it is tried again by wall-clock time until it succeeds or the run is no
 * longer owned here: the attempt has ended, so nothing else would move the activity on
 * while this node keeps the run.
 */
final class AttemptFailures {

	private static final Logger log = LoggerFactory.getLogger(AttemptFailures.class);

	/**
	 * First wait before recording a retry again after a database failure; doubles up to
	 * the maximum.
	 */
	static final Duration FIRST_RECORD_RETRY = Duration.ofMillis(200);

	static final Duration MAX_RECORD_RETRY = Duration.ofSeconds(5);

	/** Starts (or schedules) the next attempt once its retry is persisted. */
	interface NextAttempt {

		void start(InlineRun slot, String workflowId, StoredActivity retry);

	}

	private final InlineActivityRows rows;

	private final Clock clock;

	private final Listeners listeners;

	private final Executor threads;

	private final NextAttempt next;

	AttemptFailures(InlineActivityRows rows, Clock clock, Listeners listeners, Executor threads, NextAttempt next) {
		this.rows = rows;
		this.clock = clock;
		this.listeners = listeners;
		this.threads = threads;
		this.next = next;
	}

	/**
	 * @param tokenInRow the task token the attempt's row holds, or {@code null}: then the
	 * retry is persisted unless the completion client recorded the attempt's outcome
	 * first
	 */
	void failed(InlineRun slot, String workflowId, StoredActivity activity, byte[] lastHeartbeat, FailureInfo failure,
			UUID tokenInRow) {
		failed(slot, workflowId, activity, lastHeartbeat, failure, tokenInRow, FIRST_RECORD_RETRY);
	}

	private void failed(InlineRun slot, String workflowId, StoredActivity activity, byte[] lastHeartbeat,
			FailureInfo failure, UUID tokenInRow, Duration recordRetry) {
		if (slot.isDead()) {
			return;
		}
		ActivityOptions options = activity.options();
		int number = activity.attempt();
		Instant now = this.clock.instant();
		byte[] failureJson = InternalJson.write(failure);
		ActivityPauses pauses = this.rows.pauses();
		ActivityPauses.Control control;
		RetryDecision decision;
		Instant nextAt;
		boolean reset;
		boolean persisted;
		try {
			// what an operator set meanwhile: options, a pause, a new round, a reset
			control = pauses.control(activity.runId(), activity.seq());
			if (control != null) {
				options = control.options(options);
			}
			decision = RetryDecision.after(options, activity.activityType(), activity.seq(), number,
					(control != null) ? control.attemptBase() : 0, activity.scheduledAt(), failure, now);
			if (!decision.retries()) {
				this.listeners.activityFailed(ActivityExecutor.info(workflowId, activity), failureType(failure), false);
				slot.handOver(Event.activityFailed(activity.seq(), decision.finalFailure()));
				return;
			}
			if (decision.pauses()
					&& pauses.pauseExhausted(activity.runId(), activity.seq(), decision.pausedAfter(), now).changed()) {
				slot.inboxChanged(); // its next task records the pause
			}
			reset = control != null && control.resetPending();
			nextAt = reset ? now : decision.nextAttemptAt();
			persisted = this.rows.recordFailedAttempt(slot, activity, reset ? 1 : number + 1, nextAt, failureJson,
					lastHeartbeat, tokenInRow);
			if (persisted && reset) {
				pauses.resetTaken(activity.runId(), activity.seq(), control.dropDetails());
			}
		}
		catch (DataAccessException | TransactionException ex) {
			log.warn("Could not record the failed attempt {} of activity {} (seq {}) of run {}; trying again in {}: {}",
					number, activity.activityType(), activity.seq(), activity.runId(), recordRetry,
					Errors.rootMessage(ex));
			Duration after = recordRetry.multipliedBy(2);
			CompletableFuture.delayedExecutor(recordRetry.toMillis(), TimeUnit.MILLISECONDS, this.threads)
				.execute(() -> {
					// a run let go meanwhile (released at shutdown, lost): its next owner
					// retries it
					if (!slot.isDead()) {
						failed(slot, workflowId, activity, lastHeartbeat, failure, tokenInRow,
								(after.compareTo(MAX_RECORD_RETRY) > 0) ? MAX_RECORD_RETRY : after);
					}
				});
			return;
		}
		if (!persisted) {
			log.debug("Run {} is no longer owned here; dropping the retry of activity {}", activity.runId(),
					activity.seq());
			return;
		}
		this.listeners.activityFailed(ActivityExecutor.info(workflowId, activity), failureType(failure), true);
		if (decision.pauses() || (control != null && control.paused())) {
			// its next attempt waits for the unpause (or a reset), which starts it from
			// its row
			log.info(
					"Activity {} (seq {}) of run {} failed attempt {}: {}; paused, its next attempt waits for the"
							+ " unpause",
					activity.activityType(), activity.seq(), activity.runId(), number, failure.summary());
			return;
		}
		log.info("Activity {} (seq {}) of run {} failed attempt {}: {}; retrying at {}", activity.activityType(),
				activity.seq(), activity.runId(), number, failure.summary(), nextAt);
		boolean dropped = reset && control.dropDetails();
		StoredActivity retry = new StoredActivity(activity.runId(), activity.seq(), activity.activityType(),
				activity.input(), options, reset ? 1 : number + 1, activity.scheduledAt(), nextAt, failureJson,
				dropped ? null : lastHeartbeat);
		this.next.start(slot, workflowId, retry);
	}

	private static String failureType(FailureInfo failure) {
		return (failure.timeoutType() != null) ? failure.timeoutType().name() : failure.type();
	}

}
