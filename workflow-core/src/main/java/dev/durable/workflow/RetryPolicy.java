package dev.durable.workflow;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How failed activity attempts are retried. Defaults follow Temporal: 1 s initial
 * interval, coefficient 2.0, maximum interval 100 times the initial one, unlimited
 * attempts.
 *
 * @param initialInterval delay before the first retry
 * @param backoffCoefficient multiplier applied to the delay after each attempt
 * @param maximumInterval upper bound of the delay; {@code null} means 100 x initial
 * @param maximumAttempts attempts in total including the first; 0 means unlimited
 * @param nonRetryableErrorTypes failure types that are never retried; none when
 * {@code null} is given
 * @param pauseWhenExhausted when the attempts allowed by {@code maximumAttempts} are
 * exhausted by a failure that would otherwise be retried, the activity is paused instead
 * of failed: the run waits until an operator unpauses it (a new round of
 * {@code maximumAttempts} attempts) or resets it (attempt 1 again), see
 * {@code WorkflowHandle.unpauseActivity} and {@code WorkflowHandle.resetActivity}.
 * Non-retryable failures and timeouts of the whole activity (schedule-to-close,
 * schedule-to-start) still fail it.
 */
public record RetryPolicy(Duration initialInterval, double backoffCoefficient, @Nullable Duration maximumInterval,
		int maximumAttempts, List<String> nonRetryableErrorTypes, boolean pauseWhenExhausted) {

	/** The default policy. */
	public static final RetryPolicy DEFAULT = new RetryPolicy(Duration.ofSeconds(1), 2.0, null, 0, List.of());

	/**
	 * A policy that fails the activity when its attempts are exhausted.
	 */
	public RetryPolicy(Duration initialInterval, double backoffCoefficient, @Nullable Duration maximumInterval,
			int maximumAttempts, @Nullable List<String> nonRetryableErrorTypes) {
		this(initialInterval, backoffCoefficient, maximumInterval, maximumAttempts, nonRetryableErrorTypes, false);
	}

	/** The canonical constructor; {@code null} non-retryable types are none. */
	public RetryPolicy(Duration initialInterval, double backoffCoefficient, @Nullable Duration maximumInterval,
			int maximumAttempts, @Nullable List<String> nonRetryableErrorTypes, boolean pauseWhenExhausted) {
		Objects.requireNonNull(initialInterval, "initialInterval");
		if (initialInterval.isNegative() || initialInterval.isZero()) {
			throw new IllegalArgumentException("initialInterval must be positive: " + initialInterval);
		}
		if (backoffCoefficient < 1.0) {
			throw new IllegalArgumentException("backoffCoefficient must be >= 1.0: " + backoffCoefficient);
		}
		if (maximumAttempts < 0) {
			throw new IllegalArgumentException("maximumAttempts must be >= 0: " + maximumAttempts);
		}
		this.initialInterval = initialInterval;
		this.backoffCoefficient = backoffCoefficient;
		this.maximumInterval = maximumInterval;
		this.maximumAttempts = maximumAttempts;
		this.nonRetryableErrorTypes = (nonRetryableErrorTypes != null) ? List.copyOf(nonRetryableErrorTypes)
				: List.of();
		this.pauseWhenExhausted = pauseWhenExhausted;
	}

	/** The effective upper bound of the delay between attempts. */
	public Duration effectiveMaximumInterval() {
		return (this.maximumInterval != null) ? this.maximumInterval : this.initialInterval.multipliedBy(100);
	}

	/** The delay after the given failed attempt (1-based) before the next one. */
	public Duration backoff(int failedAttempt) {
		double millis = this.initialInterval.toMillis()
				* Math.pow(this.backoffCoefficient, Math.max(0, failedAttempt - 1));
		long capped = (long) Math.min(millis, effectiveMaximumInterval().toMillis());
		return Duration.ofMillis(Math.max(capped, 1));
	}

	/** Whether another attempt is allowed after {@code failedAttempt} attempts. */
	public boolean allowsAttempt(int nextAttempt) {
		return this.maximumAttempts == 0 || nextAttempt <= this.maximumAttempts;
	}

	public static Builder builder() {
		return new Builder(DEFAULT);
	}

	public Builder toBuilder() {
		return new Builder(this);
	}

	/** Builder of {@link RetryPolicy}. */
	public static final class Builder {

		private Duration initialInterval;

		private double backoffCoefficient;

		private @Nullable Duration maximumInterval;

		private int maximumAttempts;

		private List<String> nonRetryableErrorTypes;

		private boolean pauseWhenExhausted;

		private Builder(RetryPolicy from) {
			this.pauseWhenExhausted = from.pauseWhenExhausted;
			this.initialInterval = from.initialInterval;
			this.backoffCoefficient = from.backoffCoefficient;
			this.maximumInterval = from.maximumInterval;
			this.maximumAttempts = from.maximumAttempts;
			this.nonRetryableErrorTypes = from.nonRetryableErrorTypes;
		}

		public Builder initialInterval(Duration value) {
			this.initialInterval = value;
			return this;
		}

		public Builder backoffCoefficient(double value) {
			this.backoffCoefficient = value;
			return this;
		}

		/** Upper bound of the delay; {@code null}: 100 x the initial interval. */
		public Builder maximumInterval(@Nullable Duration value) {
			this.maximumInterval = value;
			return this;
		}

		public Builder maximumAttempts(int value) {
			this.maximumAttempts = value;
			return this;
		}

		public Builder nonRetryableErrorTypes(String... types) {
			this.nonRetryableErrorTypes = List.of(types);
			return this;
		}

		/**
		 * Pauses the activity instead of failing it when its maximum attempts are
		 * exhausted: it waits for an operator to unpause or reset it (see
		 * {@link RetryPolicy#pauseWhenExhausted()}).
		 */
		public Builder pauseWhenExhausted() {
			return pauseWhenExhausted(true);
		}

		/** Whether exhausted attempts pause the activity rather than fail it. */
		public Builder pauseWhenExhausted(boolean value) {
			this.pauseWhenExhausted = value;
			return this;
		}

		public RetryPolicy build() {
			return new RetryPolicy(this.initialInterval, this.backoffCoefficient, this.maximumInterval,
					this.maximumAttempts, this.nonRetryableErrorTypes, this.pauseWhenExhausted);
		}

	}

}
