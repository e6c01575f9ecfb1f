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
 */
public record RetryDecision(@Nullable Instant nextAttemptAt, @Nullable FailureInfo finalFailure) {

	/**
	 * @param options the options the activity was scheduled with
	 * @param activityType the activity type
	 * @param seq the activity's sequence number
	 * @param attempt the number of the attempt that failed
	 * @param scheduledAt when the activity was first scheduled
	 * @param failure why the attempt failed
	 * @param now the engine clock
	 */
	public static RetryDecision after(ActivityOptions options, String activityType, long seq, int attempt,
			Instant scheduledAt, FailureInfo failure, Instant now) {
		RetryPolicy policy = options.retryPolicy();
		Instant next = now.plus(policy.backoff(attempt));
		Instant deadline = (options.scheduleToCloseTimeout() != null)
				? scheduledAt.plus(options.scheduleToCloseTimeout()) : null;
		// schedule-to-start and schedule-to-close are about the activity, not the
		// attempt: never retried
		boolean retryable = !failure.nonRetryable()
				&& (failure.type() == null || !policy.nonRetryableErrorTypes().contains(failure.type()))
				&& policy.allowsAttempt(attempt + 1) && failure.timeoutType() != TimeoutType.SCHEDULE_TO_CLOSE
				&& failure.timeoutType() != TimeoutType.SCHEDULE_TO_START
				&& (deadline == null || next.isBefore(deadline));
		if (retryable) {
			return new RetryDecision(next, null);
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

}
