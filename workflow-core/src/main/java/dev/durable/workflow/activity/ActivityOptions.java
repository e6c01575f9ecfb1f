package dev.durable.workflow.activity;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.failure.TimeoutFailure;
import dev.durable.workflow.failure.TimeoutType;

/**
 * Options of an activity call. {@code null} timeouts mean "none"; a {@code null} retry
 * policy given to the constructor means {@link RetryPolicy#DEFAULT}.
 *
 * @param startToCloseTimeout maximum time of one attempt
 * @param scheduleToCloseTimeout maximum time of all attempts, from the first schedule
 * @param heartbeatTimeout maximum time between heartbeats of a running attempt
 * @param retryPolicy how failed attempts are retried
 * @param scheduleToStartTimeout maximum time an attempt of a task-queue activity waits
 * for a worker to claim it, from when it is due; not retried (a {@link TimeoutFailure} of
 * type {@link TimeoutType#SCHEDULE_TO_START}). Inline activities start at once and ignore
 * it.
 * @param taskQueue the activity task queue it runs on, claimed by any node serving that
 * queue; {@code null}: inline, on the node that owns the run
 * @param priority the order among waiting attempts of a task queue: a higher value is
 * claimed first
 * @param partitionKey the fairness key of a task queue limited by a queue with
 * per-partition concurrency, or {@code null}
 */
public record ActivityOptions(@Nullable Duration startToCloseTimeout, @Nullable Duration scheduleToCloseTimeout,
		@Nullable Duration heartbeatTimeout, RetryPolicy retryPolicy, @Nullable Duration scheduleToStartTimeout,
		@Nullable String taskQueue, int priority, @Nullable String partitionKey) {

	/** No timeouts, the default retry policy, inline. */
	public static final ActivityOptions DEFAULT = new ActivityOptions(null, null, null, RetryPolicy.DEFAULT);

	/**
	 * The canonical constructor; a {@code null} retry policy is
	 * {@link RetryPolicy#DEFAULT}.
	 */
	public ActivityOptions(@Nullable Duration startToCloseTimeout, @Nullable Duration scheduleToCloseTimeout,
			@Nullable Duration heartbeatTimeout, @Nullable RetryPolicy retryPolicy,
			@Nullable Duration scheduleToStartTimeout, @Nullable String taskQueue, int priority,
			@Nullable String partitionKey) {
		if (taskQueue != null && taskQueue.isBlank()) {
			throw new IllegalArgumentException("An activity task queue name must not be blank");
		}
		this.startToCloseTimeout = startToCloseTimeout;
		this.scheduleToCloseTimeout = scheduleToCloseTimeout;
		this.heartbeatTimeout = heartbeatTimeout;
		this.retryPolicy = (retryPolicy != null) ? retryPolicy : RetryPolicy.DEFAULT;
		this.scheduleToStartTimeout = scheduleToStartTimeout;
		this.taskQueue = taskQueue;
		this.priority = priority;
		this.partitionKey = partitionKey;
	}

	/** Options of an inline activity. */
	public ActivityOptions(@Nullable Duration startToCloseTimeout, @Nullable Duration scheduleToCloseTimeout,
			@Nullable Duration heartbeatTimeout, @Nullable RetryPolicy retryPolicy) {
		this(startToCloseTimeout, scheduleToCloseTimeout, heartbeatTimeout, retryPolicy, null, null, 0, null);
	}

	/**
	 * Whether the activity runs on a task queue (claimed by a serving node) rather than
	 * inline.
	 */
	public boolean onTaskQueue() {
		return this.taskQueue != null;
	}

	public static Builder builder() {
		return new Builder(DEFAULT);
	}

	public Builder toBuilder() {
		return new Builder(this);
	}

	/** Builder of {@link ActivityOptions}. */
	public static final class Builder {

		private @Nullable Duration startToCloseTimeout;

		private @Nullable Duration scheduleToCloseTimeout;

		private @Nullable Duration heartbeatTimeout;

		private @Nullable RetryPolicy retryPolicy;

		private @Nullable Duration scheduleToStartTimeout;

		private @Nullable String taskQueue;

		private int priority;

		private @Nullable String partitionKey;

		private Builder(ActivityOptions from) {
			this.startToCloseTimeout = from.startToCloseTimeout;
			this.scheduleToCloseTimeout = from.scheduleToCloseTimeout;
			this.heartbeatTimeout = from.heartbeatTimeout;
			this.retryPolicy = from.retryPolicy;
			this.scheduleToStartTimeout = from.scheduleToStartTimeout;
			this.taskQueue = from.taskQueue;
			this.priority = from.priority;
			this.partitionKey = from.partitionKey;
		}

		/** Maximum time of one attempt; {@code null}: none. */
		public Builder startToCloseTimeout(@Nullable Duration value) {
			this.startToCloseTimeout = value;
			return this;
		}

		/** Maximum time of all attempts, from the first schedule; {@code null}: none. */
		public Builder scheduleToCloseTimeout(@Nullable Duration value) {
			this.scheduleToCloseTimeout = value;
			return this;
		}

		/** Maximum time between heartbeats of a running attempt; {@code null}: none. */
		public Builder heartbeatTimeout(@Nullable Duration value) {
			this.heartbeatTimeout = value;
			return this;
		}

		/** How failed attempts are retried; {@code null}: {@link RetryPolicy#DEFAULT}. */
		public Builder retryPolicy(@Nullable RetryPolicy value) {
			this.retryPolicy = value;
			return this;
		}

		/**
		 * Maximum time an attempt of a task-queue activity waits to be claimed;
		 * {@code null}: none.
		 */
		public Builder scheduleToStartTimeout(@Nullable Duration value) {
			this.scheduleToStartTimeout = value;
			return this;
		}

		/** The activity task queue it runs on; {@code null}: inline on the run's node. */
		public Builder taskQueue(@Nullable String value) {
			this.taskQueue = value;
			return this;
		}

		/**
		 * Higher is claimed first among waiting attempts of its task queue; default 0.
		 */
		public Builder priority(int value) {
			this.priority = value;
			return this;
		}

		/** The fairness key of a task queue whose queue limits each partition. */
		public Builder partitionKey(@Nullable String value) {
			this.partitionKey = value;
			return this;
		}

		public ActivityOptions build() {
			return new ActivityOptions(this.startToCloseTimeout, this.scheduleToCloseTimeout, this.heartbeatTimeout,
					this.retryPolicy, this.scheduleToStartTimeout, this.taskQueue, this.priority, this.partitionKey);
		}

	}

}
