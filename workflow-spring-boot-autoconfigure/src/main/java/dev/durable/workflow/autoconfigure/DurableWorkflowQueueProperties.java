package dev.durable.workflow.autoconfigure;

import java.time.Duration;

import dev.durable.workflow.engine.QueueDefinition;

/**
 * The limits of one flow-control queue (see {@link QueueDefinition}); zero means no
 * limit.
 * <p>
 * Bound to {@code durable.workflow.queues.<name>.*}, as a part of
 * {@link DurableWorkflowProperties}. The setters refuse invalid values while the
 * properties are bound, so that the startup failure names the property and its value.
 */
public class DurableWorkflowQueueProperties {

	/**
	 * How many items of the queue (admitted workflow runs until they close, claimed
	 * activity attempts until their outcome) run at once across the cluster. 0: no limit.
	 */
	private int concurrency;

	/**
	 * How many items of the queue run at once on one node. 0: no limit.
	 */
	private int perNodeConcurrency;

	/**
	 * How many items of the queue may start per rate period, cluster-wide. 0: no limit.
	 */
	private int rateLimit;

	/**
	 * The sliding window of the rate limit.
	 */
	private Duration ratePeriod = Duration.ofSeconds(1);

	/**
	 * How many items of one partition key run at once. 0: no limit.
	 */
	private int partitionConcurrency;

	public int getConcurrency() {
		return this.concurrency;
	}

	public void setConcurrency(int concurrency) {
		this.concurrency = notNegative("concurrency", concurrency);
	}

	public int getPerNodeConcurrency() {
		return this.perNodeConcurrency;
	}

	public void setPerNodeConcurrency(int perNodeConcurrency) {
		this.perNodeConcurrency = notNegative("per-node-concurrency", perNodeConcurrency);
	}

	public int getRateLimit() {
		return this.rateLimit;
	}

	public void setRateLimit(int rateLimit) {
		this.rateLimit = notNegative("rate-limit", rateLimit);
	}

	public Duration getRatePeriod() {
		return this.ratePeriod;
	}

	public void setRatePeriod(Duration ratePeriod) {
		if (ratePeriod.isNegative() || ratePeriod.isZero()) {
			throw new IllegalArgumentException("rate-period must be positive, got " + ratePeriod);
		}
		this.ratePeriod = ratePeriod;
	}

	public int getPartitionConcurrency() {
		return this.partitionConcurrency;
	}

	public void setPartitionConcurrency(int partitionConcurrency) {
		this.partitionConcurrency = notNegative("partition-concurrency", partitionConcurrency);
	}

	/**
	 * The queue of that name with these limits.
	 * @param name the queue's name, the key under {@code durable.workflow.queues}
	 * @return its definition
	 * @throws IllegalArgumentException when the name is not a valid queue name
	 */
	public QueueDefinition toDefinition(String name) {
		if (!QueueDefinition.isValidName(name)) {
			throw new IllegalArgumentException("durable.workflow.queues." + name + ": '" + name
					+ "' is not a queue name (1-100 letters, digits and ._:-)");
		}
		return QueueDefinition.named(name)
			.withConcurrency(this.concurrency)
			.withPerNodeConcurrency(this.perNodeConcurrency)
			.withRateLimit(this.rateLimit, this.ratePeriod)
			.withPartitionConcurrency(this.partitionConcurrency);
	}

	private static int notNegative(String property, int limit) {
		if (limit < 0) {
			throw new IllegalArgumentException(property + " must not be negative (0 means no limit), got " + limit);
		}
		return limit;
	}

}
