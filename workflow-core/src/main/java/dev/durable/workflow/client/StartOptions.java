package dev.durable.workflow.client;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options of a start.
 *
 * @param workflowId the workflow id: 1-255 letters, digits and {@code ._:@-}; random UUID when null
 * @param requestId a retried start with the same request id returns the run it started
 * @param idReusePolicy policy when earlier runs with the id are closed
 * @param idConflictPolicy policy when a run with the id is open
 * @param startDelay how long to wait before the first workflow task
 * @param taskQueue only nodes serving this queue run it; {@code "default"} when null
 * @param executionTimeout the longest the whole execution may take, continue-as-new included;
 * past it the run closes TIMED_OUT
 * @param runTimeout the longest this run may take
 * @param retryPolicy when set, a failed run is followed by a new run of the same workflow id
 * after the policy's backoff, until it succeeds or the policy gives up
 * @param cronSchedule when set (5-field cron, or 6 fields with seconds; UTC), a new run of the
 * same workflow id starts at each next time after the previous run closed; UTC unless the
 * expression starts with {@code CRON_TZ=<zone id>}, e.g. {@code "CRON_TZ=Europe/Paris 0 9 * * MON-FRI"}
 * @param taskTimeout how long one workflow task of this workflow may run before it is failed and
 * retried; the engine's {@code taskTimeout} when null. Kept by continue-as-new, retries and cron
 * @param memo values shown with the run (describe, list), not searchable; any JSON-writable
 * values; empty when null
 * @param searchAttributes values the run can be listed by ({@link WorkflowClient#list}): String,
 * Long, Integer, Double, Boolean, Instant, OffsetDateTime, or a List of those; keys of 1-64
 * letters, digits and underscores; empty when null. Continue-as-new carries the run's current
 * memo and search attributes to the next run; retries and cron runs start with these.
 */
public record StartOptions(String workflowId, String requestId, WorkflowIdReusePolicy idReusePolicy,
		WorkflowIdConflictPolicy idConflictPolicy, Duration startDelay, String taskQueue, Duration executionTimeout,
		Duration runTimeout, dev.durable.workflow.RetryPolicy retryPolicy, String cronSchedule, Duration taskTimeout,
		Map<String, Object> memo, Map<String, Object> searchAttributes) {

	/** All defaults: random id, ALLOW_DUPLICATE, FAIL, no delay, the default queue. */
	public static final StartOptions DEFAULT = new StartOptions(null, null, null, null, null, null, null, null, null,
			null, null, null, null);

	public StartOptions {
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
		memo = copy(memo);
		searchAttributes = copy(searchAttributes);
	}

	// null values are allowed (and ignored at start), so not Map.copyOf
	private static Map<String, Object> copy(Map<String, ?> values) {
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

		private String workflowId;

		private String requestId;

		private WorkflowIdReusePolicy idReusePolicy;

		private WorkflowIdConflictPolicy idConflictPolicy;

		private Duration startDelay;

		private String taskQueue;

		private Duration executionTimeout;

		private Duration runTimeout;

		private dev.durable.workflow.RetryPolicy retryPolicy;

		private String cronSchedule;

		private Duration taskTimeout;

		private Map<String, Object> memo;

		private Map<String, Object> searchAttributes;

		private Builder(StartOptions from) {
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

		public Builder workflowId(String value) {
			this.workflowId = value;
			return this;
		}

		public Builder requestId(String value) {
			this.requestId = value;
			return this;
		}

		public Builder idReusePolicy(WorkflowIdReusePolicy value) {
			this.idReusePolicy = value;
			return this;
		}

		public Builder idConflictPolicy(WorkflowIdConflictPolicy value) {
			this.idConflictPolicy = value;
			return this;
		}

		public Builder startDelay(Duration value) {
			this.startDelay = value;
			return this;
		}

		public Builder taskQueue(String value) {
			this.taskQueue = value;
			return this;
		}

		public Builder executionTimeout(Duration value) {
			this.executionTimeout = value;
			return this;
		}

		public Builder runTimeout(Duration value) {
			this.runTimeout = value;
			return this;
		}

		public Builder retryPolicy(dev.durable.workflow.RetryPolicy value) {
			this.retryPolicy = value;
			return this;
		}

		public Builder cronSchedule(String value) {
			this.cronSchedule = value;
			return this;
		}

		public Builder taskTimeout(Duration value) {
			this.taskTimeout = value;
			return this;
		}

		/** Values shown with the run, not searchable. */
		public Builder memo(Map<String, ?> value) {
			this.memo = copy(value);
			return this;
		}

		/** Values the run can be listed by; see {@link StartOptions#searchAttributes()}. */
		public Builder searchAttributes(Map<String, ?> value) {
			this.searchAttributes = copy(value);
			return this;
		}

		public StartOptions build() {
			return new StartOptions(this.workflowId, this.requestId, this.idReusePolicy, this.idConflictPolicy,
					this.startDelay, this.taskQueue, this.executionTimeout, this.runTimeout, this.retryPolicy,
					this.cronSchedule, this.taskTimeout, this.memo, this.searchAttributes);
		}

	}

}
