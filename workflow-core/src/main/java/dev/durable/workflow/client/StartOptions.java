package dev.durable.workflow.client;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.WorkflowIdReusePolicy;

/**
 * Options of a start.
 *
 * @param workflowId the workflow id: 1-255 letters, digits and {@code ._:@-}; random UUID
 * when null
 * @param requestId a retried start with the same request id returns the run it started;
 * no deduplication when null
 * @param idReusePolicy policy when earlier runs with the id are closed; ALLOW_DUPLICATE
 * when null is given
 * @param idConflictPolicy policy when a run with the id is open; FAIL when null is given
 * @param startDelay how long to wait before the first workflow task; none when null
 * @param taskQueue only nodes serving this queue run it; {@code "default"} when null
 * @param executionTimeout the longest the whole execution may take, continue-as-new
 * included; past it the run closes TIMED_OUT; unlimited when null
 * @param runTimeout the longest this run may take; unlimited when null
 * @param retryPolicy when set, a failed run is followed by a new run of the same workflow
 * id after the policy's backoff, until it succeeds or the policy gives up
 * @param cronSchedule when set (5-field cron, or 6 fields with seconds; UTC), a new run
 * of the same workflow id starts at each next time after the previous run closed; UTC
 * unless the expression starts with {@code CRON_TZ=<zone id>}, e.g.
 * {@code "CRON_TZ=Europe/Paris 0 9 * * MON-FRI"}
 * @param taskTimeout how long one workflow task of this workflow may run before it is
 * failed and retried; the engine's {@code taskTimeout} when null. Kept by
 * continue-as-new, retries and cron
 * @param memo values shown with the run (describe, list), not searchable; any
 * JSON-writable values; empty when null
 * @param searchAttributes values the run can be listed by ({@link WorkflowClient#list}):
 * String, Long, Integer, Double, Boolean, Instant, OffsetDateTime, or a List of those;
 * keys of 1-64 letters, digits and underscores; empty when null. Continue-as-new carries
 * the run's current memo and search attributes to the next run; retries and cron runs
 * start with these.
 * @param queue the flow-control queue the start joins: the run waits, stored, until the
 * queue's limits (concurrency, per-node concurrency, rate, per-partition concurrency)
 * admit it, and holds its slot until it closes; {@code null}: it runs at once.
 * Continue-as-new, retries and cron runs of a queued run run without queueing again.
 * @param priority the order among runs waiting in the queue: a higher value is admitted
 * first; equal priorities in order of arrival
 * @param partitionKey the fairness key within the queue (a tenant, a customer): a queue
 * with per-partition concurrency limits each key on its own, so one key at its limit does
 * not hold back the others; {@code null}: no partition
 * @param summary one line for people, shown with the run in listings, describe and the
 * dashboard (at most {@value #MAX_SUMMARY_LENGTH} characters), or {@code null}; kept by
 * continue-as-new, retries and cron runs
 * @param details more text for people, shown on the run's page and in describe (at most
 * {@value #MAX_DETAILS_LENGTH} characters), or {@code null}
 */
public record StartOptions(@Nullable String workflowId, @Nullable String requestId, WorkflowIdReusePolicy idReusePolicy,
		WorkflowIdConflictPolicy idConflictPolicy, @Nullable Duration startDelay, @Nullable String taskQueue,
		@Nullable Duration executionTimeout, @Nullable Duration runTimeout, @Nullable RetryPolicy retryPolicy,
		@Nullable String cronSchedule, @Nullable Duration taskTimeout, Map<String, Object> memo,
		Map<String, Object> searchAttributes, @Nullable String queue, int priority, @Nullable String partitionKey,
		@Nullable String summary, @Nullable String details) {

	/** The longest summary, in characters. */
	public static final int MAX_SUMMARY_LENGTH = 400;

	/** The longest details, in characters. */
	public static final int MAX_DETAILS_LENGTH = 20_000;

	/** All defaults: random id, ALLOW_DUPLICATE, FAIL, no delay, the default queue. */
	public static final StartOptions DEFAULT = new StartOptions(null, null, null, null, null, null, null, null, null,
			null, null, null, null);

	/**
	 * The canonical constructor; {@code null} policies are ALLOW_DUPLICATE and FAIL, a
	 * {@code null} memo or search attribute map is empty.
	 */
	public StartOptions(@Nullable String workflowId, @Nullable String requestId,
			@Nullable WorkflowIdReusePolicy idReusePolicy, @Nullable WorkflowIdConflictPolicy idConflictPolicy,
			@Nullable Duration startDelay, @Nullable String taskQueue, @Nullable Duration executionTimeout,
			@Nullable Duration runTimeout, @Nullable RetryPolicy retryPolicy, @Nullable String cronSchedule,
			@Nullable Duration taskTimeout, @Nullable Map<String, Object> memo,
			@Nullable Map<String, Object> searchAttributes, @Nullable String queue, int priority,
			@Nullable String partitionKey, @Nullable String summary, @Nullable String details) {
		checkText("summary", summary, MAX_SUMMARY_LENGTH);
		checkText("details", details, MAX_DETAILS_LENGTH);
		if (queue != null && queue.isBlank()) {
			throw new IllegalArgumentException("A queue name must not be blank");
		}
		idReusePolicy = (idReusePolicy != null) ? idReusePolicy : WorkflowIdReusePolicy.ALLOW_DUPLICATE;
		idConflictPolicy = (idConflictPolicy != null) ? idConflictPolicy : WorkflowIdConflictPolicy.FAIL;
		if (startDelay != null && startDelay.isNegative()) {
			throw new IllegalArgumentException("startDelay must not be negative: " + startDelay);
		}
		for (Duration timeout : new Duration[] { executionTimeout, runTimeout, taskTimeout }) {
			if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
				throw new IllegalArgumentException("Timeouts must be positive: " + timeout);
			}
		}
		this.workflowId = workflowId;
		this.requestId = requestId;
		this.idReusePolicy = idReusePolicy;
		this.idConflictPolicy = idConflictPolicy;
		this.startDelay = startDelay;
		this.taskQueue = taskQueue;
		this.executionTimeout = executionTimeout;
		this.runTimeout = runTimeout;
		this.retryPolicy = retryPolicy;
		this.cronSchedule = cronSchedule;
		this.taskTimeout = taskTimeout;
		this.memo = copy(memo);
		this.searchAttributes = copy(searchAttributes);
		this.queue = queue;
		this.priority = priority;
		this.partitionKey = partitionKey;
		this.summary = summary;
		this.details = details;
	}

	/** Options of a start without a summary or details. */
	public StartOptions(@Nullable String workflowId, @Nullable String requestId,
			@Nullable WorkflowIdReusePolicy idReusePolicy, @Nullable WorkflowIdConflictPolicy idConflictPolicy,
			@Nullable Duration startDelay, @Nullable String taskQueue, @Nullable Duration executionTimeout,
			@Nullable Duration runTimeout, @Nullable RetryPolicy retryPolicy, @Nullable String cronSchedule,
			@Nullable Duration taskTimeout, @Nullable Map<String, Object> memo,
			@Nullable Map<String, Object> searchAttributes, @Nullable String queue, int priority,
			@Nullable String partitionKey) {
		this(workflowId, requestId, idReusePolicy, idConflictPolicy, startDelay, taskQueue, executionTimeout,
				runTimeout, retryPolicy, cronSchedule, taskTimeout, memo, searchAttributes, queue, priority,
				partitionKey, null, null);
	}

	private static void checkText(String what, @Nullable String text, int maxLength) {
		if (text == null) {
			return;
		}
		if (text.length() > maxLength) {
			throw new IllegalArgumentException(
					"The " + what + " has " + text.length() + " characters; at most " + maxLength + " are kept");
		}
		if (text.indexOf('\u0000') >= 0) {
			throw new IllegalArgumentException("The " + what + " must not contain a NUL character (U+0000)");
		}
	}

	/** Options of a start that joins no queue. */
	public StartOptions(@Nullable String workflowId, @Nullable String requestId,
			@Nullable WorkflowIdReusePolicy idReusePolicy, @Nullable WorkflowIdConflictPolicy idConflictPolicy,
			@Nullable Duration startDelay, @Nullable String taskQueue, @Nullable Duration executionTimeout,
			@Nullable Duration runTimeout, @Nullable RetryPolicy retryPolicy, @Nullable String cronSchedule,
			@Nullable Duration taskTimeout, @Nullable Map<String, Object> memo,
			@Nullable Map<String, Object> searchAttributes) {
		this(workflowId, requestId, idReusePolicy, idConflictPolicy, startDelay, taskQueue, executionTimeout,
				runTimeout, retryPolicy, cronSchedule, taskTimeout, memo, searchAttributes, null, 0, null);
	}

	// null values are allowed (and ignored at start), so not Map.copyOf
	private static Map<String, Object> copy(@Nullable Map<String, ?> values) {
		return (values != null) ? Collections.unmodifiableMap(new LinkedHashMap<>(values)) : Map.of();
	}

	public static Builder builder() {
		return new Builder(DEFAULT);
	}

	/** Default options with the given workflow id. */
	public static StartOptions withId(String workflowId) {
		return builder().workflowId(workflowId).build();
	}

	public Builder toBuilder() {
		return new Builder(this);
	}

	/** Builder of {@link StartOptions}. */
	public static final class Builder {

		private @Nullable String workflowId;

		private @Nullable String requestId;

		private @Nullable WorkflowIdReusePolicy idReusePolicy;

		private @Nullable WorkflowIdConflictPolicy idConflictPolicy;

		private @Nullable Duration startDelay;

		private @Nullable String taskQueue;

		private @Nullable Duration executionTimeout;

		private @Nullable Duration runTimeout;

		private @Nullable RetryPolicy retryPolicy;

		private @Nullable String cronSchedule;

		private @Nullable Duration taskTimeout;

		private Map<String, Object> memo;

		private Map<String, Object> searchAttributes;

		private @Nullable String queue;

		private int priority;

		private @Nullable String partitionKey;

		private @Nullable String summary;

		private @Nullable String details;

		private Builder(StartOptions from) {
			this.summary = from.summary;
			this.details = from.details;
			this.queue = from.queue;
			this.priority = from.priority;
			this.partitionKey = from.partitionKey;
			this.taskTimeout = from.taskTimeout;
			this.memo = from.memo;
			this.searchAttributes = from.searchAttributes;
			this.retryPolicy = from.retryPolicy;
			this.cronSchedule = from.cronSchedule;
			this.executionTimeout = from.executionTimeout;
			this.runTimeout = from.runTimeout;
			this.workflowId = from.workflowId;
			this.requestId = from.requestId;
			this.idReusePolicy = from.idReusePolicy;
			this.idConflictPolicy = from.idConflictPolicy;
			this.startDelay = from.startDelay;
			this.taskQueue = from.taskQueue;
		}

		/** The workflow id; {@code null}: a random UUID. */
		public Builder workflowId(@Nullable String value) {
			this.workflowId = value;
			return this;
		}

		/** The request id of an idempotent start; {@code null}: none. */
		public Builder requestId(@Nullable String value) {
			this.requestId = value;
			return this;
		}

		/** The id reuse policy; {@code null}: ALLOW_DUPLICATE. */
		public Builder idReusePolicy(@Nullable WorkflowIdReusePolicy value) {
			this.idReusePolicy = value;
			return this;
		}

		/** The id conflict policy; {@code null}: FAIL. */
		public Builder idConflictPolicy(@Nullable WorkflowIdConflictPolicy value) {
			this.idConflictPolicy = value;
			return this;
		}

		/** The delay before the first workflow task; {@code null}: none. */
		public Builder startDelay(@Nullable Duration value) {
			this.startDelay = value;
			return this;
		}

		/** The task queue; {@code null}: {@code "default"}. */
		public Builder taskQueue(@Nullable String value) {
			this.taskQueue = value;
			return this;
		}

		/** The execution timeout; {@code null}: unlimited. */
		public Builder executionTimeout(@Nullable Duration value) {
			this.executionTimeout = value;
			return this;
		}

		/** The run timeout; {@code null}: unlimited. */
		public Builder runTimeout(@Nullable Duration value) {
			this.runTimeout = value;
			return this;
		}

		/** The workflow retry policy; {@code null}: a failed run is not retried. */
		public Builder retryPolicy(@Nullable RetryPolicy value) {
			this.retryPolicy = value;
			return this;
		}

		/** The cron schedule; {@code null}: none. */
		public Builder cronSchedule(@Nullable String value) {
			this.cronSchedule = value;
			return this;
		}

		/** The workflow task timeout; {@code null}: the engine's. */
		public Builder taskTimeout(@Nullable Duration value) {
			this.taskTimeout = value;
			return this;
		}

		/** Values shown with the run, not searchable; {@code null}: none. */
		public Builder memo(@Nullable Map<String, ?> value) {
			this.memo = copy(value);
			return this;
		}

		/**
		 * Values the run can be listed by; see {@link StartOptions#searchAttributes()};
		 * {@code null}: none.
		 */
		public Builder searchAttributes(@Nullable Map<String, ?> value) {
			this.searchAttributes = copy(value);
			return this;
		}

		/**
		 * The flow-control queue the start joins; {@code null}: none, it runs at once.
		 */
		public Builder queue(@Nullable String value) {
			this.queue = value;
			return this;
		}

		/** Higher is admitted first among runs waiting in the queue; default 0. */
		public Builder priority(int value) {
			this.priority = value;
			return this;
		}

		/** The fairness key within the queue; {@code null}: none. */
		public Builder partitionKey(@Nullable String value) {
			this.partitionKey = value;
			return this;
		}

		/**
		 * One line for people, shown with the run in listings and the dashboard;
		 * {@code null}: none.
		 */
		public Builder summary(@Nullable String value) {
			this.summary = value;
			return this;
		}

		/** More text for people, shown on the run's page; {@code null}: none. */
		public Builder details(@Nullable String value) {
			this.details = value;
			return this;
		}

		public StartOptions build() {
			return new StartOptions(this.workflowId, this.requestId, this.idReusePolicy, this.idConflictPolicy,
					this.startDelay, this.taskQueue, this.executionTimeout, this.runTimeout, this.retryPolicy,
					this.cronSchedule, this.taskTimeout, this.memo, this.searchAttributes, this.queue, this.priority,
					this.partitionKey, this.summary, this.details);
		}

	}

}
