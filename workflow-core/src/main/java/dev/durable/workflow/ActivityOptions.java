package dev.durable.workflow;

import java.time.Duration;

/**
 * Options of an activity call. {@code null} timeouts mean "none".
 *
 * @param startToCloseTimeout maximum time of one attempt
 * @param scheduleToCloseTimeout maximum time of all attempts, from the first schedule
 * @param heartbeatTimeout maximum time between heartbeats of a running attempt
 * @param retryPolicy how failed attempts are retried
 */
public record ActivityOptions(Duration startToCloseTimeout, Duration scheduleToCloseTimeout, Duration heartbeatTimeout,
		RetryPolicy retryPolicy) {

	/** No timeouts, the default retry policy. */
	public static final ActivityOptions DEFAULT = new ActivityOptions(null, null, null, RetryPolicy.DEFAULT);

	public ActivityOptions {
		retryPolicy = (retryPolicy != null) ? retryPolicy : RetryPolicy.DEFAULT;
	}

	public static Builder builder() {
		return new Builder(DEFAULT);
	}

	public Builder toBuilder() {
		return new Builder(this);
	}

	/** Builder of {@link ActivityOptions}. */
	public static final class Builder {

		private Duration startToCloseTimeout;

		private Duration scheduleToCloseTimeout;

		private Duration heartbeatTimeout;

		private RetryPolicy retryPolicy;

		private Builder(ActivityOptions from) {
			this.startToCloseTimeout = from.startToCloseTimeout;
			this.scheduleToCloseTimeout = from.scheduleToCloseTimeout;
			this.heartbeatTimeout = from.heartbeatTimeout;
			this.retryPolicy = from.retryPolicy;
		}

		public Builder startToCloseTimeout(Duration value) {
			this.startToCloseTimeout = value;
			return this;
		}

		public Builder scheduleToCloseTimeout(Duration value) {
			this.scheduleToCloseTimeout = value;
			return this;
		}

		public Builder heartbeatTimeout(Duration value) {
			this.heartbeatTimeout = value;
			return this;
		}

		public Builder retryPolicy(RetryPolicy value) {
			this.retryPolicy = value;
			return this;
		}

		public ActivityOptions build() {
			return new ActivityOptions(this.startToCloseTimeout, this.scheduleToCloseTimeout, this.heartbeatTimeout,
					this.retryPolicy);
		}

	}

}
