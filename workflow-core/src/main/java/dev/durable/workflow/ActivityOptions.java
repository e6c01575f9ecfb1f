package dev.durable.workflow;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Options of an activity call. {@code null} timeouts mean "none"; a {@code null} retry policy
 * given to the constructor means {@link RetryPolicy#DEFAULT}.
 *
 * @param startToCloseTimeout maximum time of one attempt
 * @param scheduleToCloseTimeout maximum time of all attempts, from the first schedule
 * @param heartbeatTimeout maximum time between heartbeats of a running attempt
 * @param retryPolicy how failed attempts are retried
 */
public record ActivityOptions(@Nullable Duration startToCloseTimeout, @Nullable Duration scheduleToCloseTimeout,
		@Nullable Duration heartbeatTimeout, RetryPolicy retryPolicy) {

	/** No timeouts, the default retry policy. */
	public static final ActivityOptions DEFAULT = new ActivityOptions(null, null, null, RetryPolicy.DEFAULT);

	/** The canonical constructor; a {@code null} retry policy is {@link RetryPolicy#DEFAULT}. */
	public ActivityOptions(@Nullable Duration startToCloseTimeout, @Nullable Duration scheduleToCloseTimeout,
			@Nullable Duration heartbeatTimeout, @Nullable RetryPolicy retryPolicy) {
		this.startToCloseTimeout = startToCloseTimeout;
		this.scheduleToCloseTimeout = scheduleToCloseTimeout;
		this.heartbeatTimeout = heartbeatTimeout;
		this.retryPolicy = (retryPolicy != null) ? retryPolicy : RetryPolicy.DEFAULT;
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

		private Builder(ActivityOptions from) {
			this.startToCloseTimeout = from.startToCloseTimeout;
			this.scheduleToCloseTimeout = from.scheduleToCloseTimeout;
			this.heartbeatTimeout = from.heartbeatTimeout;
			this.retryPolicy = from.retryPolicy;
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

		public ActivityOptions build() {
			return new ActivityOptions(this.startToCloseTimeout, this.scheduleToCloseTimeout, this.heartbeatTimeout,
					this.retryPolicy);
		}

	}

}
