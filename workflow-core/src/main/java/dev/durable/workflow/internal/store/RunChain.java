package dev.durable.workflow.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

import org.springframework.scheduling.support.CronExpression;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.internal.history.FailureInfo;

/**
 * Start options that stay with a workflow id from run to run: what follows a closed run (a retry
 * of a failed run under the workflow retry policy, or the next cron run) and the workflow task
 * timeout. Stored with the run's payloads and copied to each next run (continue-as-new, retry,
 * cron, reset).
 *
 * @param retryPolicy the workflow retry policy, or {@code null}
 * @param cronSchedule the cron schedule, or {@code null}
 * @param taskTimeout how long one workflow task may run, or {@code null} for the engine's
 */
public record RunChain(RetryPolicy retryPolicy, String cronSchedule, Duration taskTimeout) {

	private static final String ZONE_PREFIX = "CRON_TZ=";

	public boolean isEmpty() {
		return this.retryPolicy == null && this.cronSchedule == null && this.taskTimeout == null;
	}

	/**
	 * The time zone of a cron expression: UTC unless it starts with {@code CRON_TZ=<zone id>}.
	 * @throws IllegalArgumentException for an unknown zone
	 */
	public static ZoneId zone(String expression) {
		String trimmed = expression.trim();
		if (!trimmed.startsWith(ZONE_PREFIX)) {
			return ZoneOffset.UTC;
		}
		String id = trimmed.substring(ZONE_PREFIX.length()).split("\\s+", 2)[0];
		try {
			return ZoneId.of(id);
		}
		catch (java.time.DateTimeException ex) {
			throw new IllegalArgumentException("Invalid time zone '" + id + "' in cron schedule '" + expression + "'",
					ex);
		}
	}

	/**
	 * Parses a 5-field (minute precision) or 6-field cron expression, optionally preceded by
	 * {@code CRON_TZ=<zone id>}.
	 */
	public static CronExpression cron(String expression) {
		String trimmed = expression.trim();
		if (trimmed.startsWith(ZONE_PREFIX)) {
			String[] parts = trimmed.split("\\s+", 2);
			trimmed = (parts.length > 1) ? parts[1].trim() : "";
		}
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
			// the zone decides what "9 o'clock" is, daylight-saving transitions included
			ZonedDateTime next = cron(this.cronSchedule).next(now.atZone(zone(this.cronSchedule)));
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
