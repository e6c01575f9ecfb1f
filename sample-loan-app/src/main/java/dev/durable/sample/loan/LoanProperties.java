package dev.durable.sample.loan;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.activity.ActivityOptions;

/**
 * The sample's settings, under {@code loan.} in {@code application.yaml}: durations, the
 * retry policy of the steps, the rules of the simulated outside systems, and the rate of
 * injected transient faults.
 */
@ConfigurationProperties("loan")
public class LoanProperties {

	/**
	 * Closing disclosure waiting period between approval and closing (the law asks for 3
	 * days).
	 */
	private Duration closingWaitingPeriod = Duration.ofDays(3);

	/** How long each simulated outside call takes. */
	private Duration simulatedWork = Duration.ofMillis(500);

	/**
	 * Probability (0 to 1) that an attempt of a step fails with a transient fault,
	 * retried by policy.
	 */
	private double transientFailureRate = 0.2;

	/** The steps the transient faults hit; empty for all. */
	private Set<String> transientFailureActivities = new LinkedHashSet<>();

	/** Employers that answer income verification requests. */
	private Set<String> knownEmployers = new LinkedHashSet<>(List.of("Analytical Engines Ltd", "US Navy", "Acme Corp"));

	/** Parcel ids the appraiser and the title company know. */
	private Set<String> propertyIds = new LinkedHashSet<>(List.of("PARCEL-1843", "P-7", "PARCEL-42"));

	/** Lowest credit score underwriting approves. */
	private int minimumCreditScore = 620;

	/** Largest loan underwriting considers. */
	private BigDecimal maximumLoanAmount = new BigDecimal("2000000");

	/** How long one attempt of a step may take. */
	private Duration startToCloseTimeout = Duration.ofSeconds(30);

	/**
	 * The retry policy of every step (transient faults only: a bad field is never
	 * retried).
	 */
	private final Retry retry = new Retry();

	public Duration getClosingWaitingPeriod() {
		return this.closingWaitingPeriod;
	}

	public void setClosingWaitingPeriod(Duration closingWaitingPeriod) {
		this.closingWaitingPeriod = closingWaitingPeriod;
	}

	public Duration getSimulatedWork() {
		return this.simulatedWork;
	}

	public void setSimulatedWork(Duration simulatedWork) {
		this.simulatedWork = simulatedWork;
	}

	public double getTransientFailureRate() {
		return this.transientFailureRate;
	}

	public void setTransientFailureRate(double transientFailureRate) {
		this.transientFailureRate = transientFailureRate;
	}

	public Set<String> getTransientFailureActivities() {
		return this.transientFailureActivities;
	}

	public void setTransientFailureActivities(Set<String> transientFailureActivities) {
		this.transientFailureActivities = transientFailureActivities;
	}

	public Set<String> getKnownEmployers() {
		return this.knownEmployers;
	}

	public void setKnownEmployers(Set<String> knownEmployers) {
		this.knownEmployers = knownEmployers;
	}

	public Set<String> getPropertyIds() {
		return this.propertyIds;
	}

	public void setPropertyIds(Set<String> propertyIds) {
		this.propertyIds = propertyIds;
	}

	public int getMinimumCreditScore() {
		return this.minimumCreditScore;
	}

	public void setMinimumCreditScore(int minimumCreditScore) {
		this.minimumCreditScore = minimumCreditScore;
	}

	public BigDecimal getMaximumLoanAmount() {
		return this.maximumLoanAmount;
	}

	public void setMaximumLoanAmount(BigDecimal maximumLoanAmount) {
		this.maximumLoanAmount = maximumLoanAmount;
	}

	public Duration getStartToCloseTimeout() {
		return this.startToCloseTimeout;
	}

	public void setStartToCloseTimeout(Duration startToCloseTimeout) {
		this.startToCloseTimeout = startToCloseTimeout;
	}

	public Retry getRetry() {
		return this.retry;
	}

	/** The activity options of the steps, from these settings. */
	public ActivityOptions activityOptions() {
		return ActivityOptions.builder()
			.startToCloseTimeout(this.startToCloseTimeout)
			.retryPolicy(RetryPolicy.builder()
				.initialInterval(this.retry.initialInterval)
				.backoffCoefficient(this.retry.backoffCoefficient)
				.maximumInterval(this.retry.maximumInterval)
				.maximumAttempts(this.retry.maximumAttempts)
				.pauseWhenExhausted(this.retry.pauseWhenExhausted)
				.build())
			.build();
	}

	/** The retry policy of the steps. */
	public static class Retry {

		/** Wait before the first retry. */
		private Duration initialInterval = Duration.ofSeconds(1);

		/** Each wait is the previous one times this. */
		private double backoffCoefficient = 2.0;

		/** Longest wait between attempts. */
		private Duration maximumInterval = Duration.ofMinutes(1);

		/** Attempts in all before the step pauses, or fails for good (0 for no limit). */
		private int maximumAttempts = 10;

		/**
		 * When a step's attempts run out, pause the step (its activity) until an operator
		 * unpauses or resets it, instead of failing the loan.
		 */
		private boolean pauseWhenExhausted = true;

		public boolean isPauseWhenExhausted() {
			return this.pauseWhenExhausted;
		}

		public void setPauseWhenExhausted(boolean pauseWhenExhausted) {
			this.pauseWhenExhausted = pauseWhenExhausted;
		}

		public Duration getInitialInterval() {
			return this.initialInterval;
		}

		public void setInitialInterval(Duration initialInterval) {
			this.initialInterval = initialInterval;
		}

		public double getBackoffCoefficient() {
			return this.backoffCoefficient;
		}

		public void setBackoffCoefficient(double backoffCoefficient) {
			this.backoffCoefficient = backoffCoefficient;
		}

		public Duration getMaximumInterval() {
			return this.maximumInterval;
		}

		public void setMaximumInterval(Duration maximumInterval) {
			this.maximumInterval = maximumInterval;
		}

		public int getMaximumAttempts() {
			return this.maximumAttempts;
		}

		public void setMaximumAttempts(int maximumAttempts) {
			this.maximumAttempts = maximumAttempts;
		}

	}

}
