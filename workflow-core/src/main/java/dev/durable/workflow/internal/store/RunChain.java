package dev.durable.workflow.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.client.schedule.CronSchedule;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * Start options that stay with a workflow id from run to run: what follows a closed run
 * (a retry of a failed run under the workflow retry policy, or the next cron run) and the
 * workflow task timeout. Stored with the run's payloads and copied to each next run
 * (continue-as-new, retry, cron, reset).
 *
 * @param retryPolicy the workflow retry policy, or {@code null}
 * @param cronSchedule the cron schedule, or {@code null}
 * @param taskTimeout how long one workflow task may run, or {@code null} for the engine's
 * @param headers what the interceptors of the start put in its headers (absent from
 * chains stored before headers existed: read as empty)
 * @param summary the start's one-line summary for people, or {@code null}
 * @param details the start's details for people, or {@code null}
 */
public record RunChain(RetryPolicy retryPolicy, String cronSchedule, Duration taskTimeout, Map<String, String> headers,
		String summary, String details) {

	public RunChain {
		headers = (headers != null) ? Map.copyOf(headers) : Map.of();
	}

	public RunChain(RetryPolicy retryPolicy, String cronSchedule, Duration taskTimeout, Map<String, String> headers) {
		this(retryPolicy, cronSchedule, taskTimeout, headers, null, null);
	}

	public RunChain(RetryPolicy retryPolicy, String cronSchedule, Duration taskTimeout) {
		this(retryPolicy, cronSchedule, taskTimeout, null);
	}

	/** The headers of a run's chain; empty for a run with no chain stored. */
	public static Map<String, String> headers(RunChain chain) {
		return (chain != null) ? chain.headers() : Map.of();
	}

	/** The headers of a stored chain ({@code run_payload.options}); empty for none. */
	public static Map<String, String> headers(byte[] stored) {
		return (stored != null) ? InternalJson.read(stored, RunChain.class).headers() : Map.of();
	}

	public boolean isEmpty() {
		return this.retryPolicy == null && this.cronSchedule == null && this.taskTimeout == null
				&& this.headers.isEmpty() && this.summary == null && this.details == null;
	}

	/**
	 * When the next run starts, or {@code null} when the chain ends.
	 * @param status the closing status
	 * @param failure the failure, for FAILED
	 * @param attempt the closing run's attempt number
	 * @param now the close time
	 * @return the next start and whether it is a retry
	 */
	public Next next(RunStatus status, FailureInfo failure, int attempt, Instant now) {
		if (status == RunStatus.FAILED && this.retryPolicy != null && failure != null && !failure.nonRetryable()
				&& (failure.type() == null || !this.retryPolicy.nonRetryableErrorTypes().contains(failure.type()))
				&& this.retryPolicy.allowsAttempt(attempt + 1)) {
			return new Next(now.plus(this.retryPolicy.backoff(attempt)), attempt + 1);
		}
		if (this.cronSchedule != null) {
			Instant next = CronSchedule.parse(this.cronSchedule).next(now);
			return (next != null) ? new Next(next, 1) : null;
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
