package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

import org.springframework.scheduling.support.CronExpression;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.internal.history.FailureInfo;

/**
 * What follows a closed run of the same workflow id: a retry of a failed run (workflow retry
 * policy) or the next cron run. Stored with the run's payloads and copied to each next run.
 *
 * @param retryPolicy the workflow retry policy, or {@code null}
 * @param cronSchedule the cron schedule, or {@code null}
 */
public record RunChain(RetryPolicy retryPolicy, String cronSchedule) {

	public boolean isEmpty() {
		return this.retryPolicy == null && this.cronSchedule == null;
	}

	/** Parses a 5-field (minute precision) or 6-field cron expression. */
	public static CronExpression cron(String expression) {
		String trimmed = expression.trim();
		String spring = (trimmed.split("\\s+").length == 5) ? "0 " + trimmed : trimmed;
		try {
			return CronExpression.parse(spring);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid cron schedule '" + expression + "': " + ex.getMessage(), ex);
		}
	}

	/**
	 * When the next run starts, or {@code null} when the chain ends.
	 * @param status the closing status
	 * @param failure the failure, for FAILED
	 * @param attempt the closing run's attempt number
	 * @param now the close time
	 * @return the next start and whether it is a retry
	 */
	public Next next(String status, FailureInfo failure, int attempt, Instant now) {
		if ("FAILED".equals(status) && this.retryPolicy != null && failure != null && !failure.nonRetryable()
				&& (failure.type() == null || !this.retryPolicy.nonRetryableErrorTypes().contains(failure.type()))
				&& this.retryPolicy.allowsAttempt(attempt + 1)) {
			return new Next(now.plus(this.retryPolicy.backoff(attempt)), attempt + 1);
		}
		if (this.cronSchedule != null) {
			ZonedDateTime next = cron(this.cronSchedule).next(now.atZone(ZoneOffset.UTC));
			return (next != null) ? new Next(next.toInstant(), 1) : null;
		}
		return null;
	}

	/**
	 * The next run of a chain.
	 *
	 * @param startAt when it starts
	 * @param attempt its attempt number
	 */
	public record Next(Instant startAt, int attempt) {
	}

}
