package dev.durable.workflow.internal.activity;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.failure.TimeoutType;
import dev.durable.workflow.internal.history.FailureInfo;

/**
 * What follows a failed activity attempt, by the activity's retry policy and timeouts:
 * another attempt at a time, or the failure the workflow gets. The same rule for inline
 * attempts, attempts on task queues and attempts failed through the completion client.
 *
 * @param nextAttemptAt when the next attempt is due, or {@code null} when there is none
 * @param finalFailure the activity failure handed to the workflow, or {@code null} when
 * it retries
 * @param pausedAfter when the retry policy pauses the activity because its attempts are
 * exhausted, the number of the attempt that failed (its next attempt waits for an unpause
 * or a reset), else 0
 */
public record RetryDecision(@Nullable Instant nextAttemptAt, @Nullable FailureInfo finalFailure, int pausedAfter) {

	public RetryDecision(@Nullable Instant nextAttemptAt, @Nullable FailureInfo finalFailure) {
		this(nextAttemptAt, finalFailure, 0);
	}

	/**
	 * The decision for a failed attempt of an activity nobody acted on (see
	 * {@link #after(ActivityOptions, String, long, int, int, Instant, FailureInfo, Instant)}).
	 */
	public static RetryDecision after(ActivityOptions options, String activityType, long seq, int attempt,
			Instant scheduledAt, FailureInfo failure, Instant now) {
		return after(options, activityType, seq, attempt, 0, scheduledAt, failure, now);
	}

	/**
	 * @param options the options the activity was scheduled with
	 * @param activityType the activity type
	 * @param seq the activity's sequence number
	 * @param attempt the number of the attempt that failed
	 * @param earlierRounds the attempts of earlier rounds (an activity unpaused after its
	 * attempts were exhausted): the policy counts the attempts after them
	 * @param scheduledAt when the activity was first scheduled
	 * @param failure why the attempt failed
	 * @param now the engine clock
	 */
	public static RetryDecision after(ActivityOptions options, String activityType, long seq, int attempt,
			int earlierRounds, Instant scheduledAt, FailureInfo failure, Instant now) {
		RetryPolicy policy = options.retryPolicy();
		int counted = Math.max(1, attempt - earlierRounds);
		Instant next = now.plus(policy.backoff(counted));
		Instant deadline = (options.scheduleToCloseTimeout() != null)
				? scheduledAt.plus(options.scheduleToCloseTimeout()) : null;
		// schedule-to-start and schedule-to-close are about the activity, not the
		// attempt: never retried
		boolean retryableButForAttempts = !failure.nonRetryable()
				&& (failure.type() == null || !policy.nonRetryableErrorTypes().contains(failure.type()))
				&& failure.timeoutType() != TimeoutType.SCHEDULE_TO_CLOSE
				&& failure.timeoutType() != TimeoutType.SCHEDULE_TO_START
				&& (deadline == null || next.isBefore(deadline));
		if (retryableButForAttempts && policy.allowsAttempt(counted + 1)) {
			return new RetryDecision(next, null);
		}
		if (retryableButForAttempts && policy.pauseWhenExhausted()) {
			// the next attempt is due at once, and waits for the unpause or the reset
			return new RetryDecision(now, null, attempt);
		}
		FailureInfo cause = failure;
		if (deadline != null && !next.isBefore(deadline) && failure.timeoutType() == null) {
			cause = FailureInfo.timeout(TimeoutType.SCHEDULE_TO_CLOSE,
					"no time left for another attempt before the schedule-to-close timeout", failure);
		}
		return new RetryDecision(null, FailureInfo.activity(activityType, seq, attempt, cause));
	}

	public boolean retries() {
		return this.finalFailure == null;
	}

	/** Whether the retry policy pauses the activity (its attempts are exhausted). */
	public boolean pauses() {
		return this.pausedAfter > 0;
	}

}
