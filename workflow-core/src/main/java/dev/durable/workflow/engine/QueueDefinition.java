package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A named flow-control queue and its limits. Workflow starts join it with
 * {@code StartOptions.queue(name)}; activities on the task queue of the same name are
 * limited by it too. Every limit is enforced in the database, across all nodes: a node
 * admits work from a queue only inside a transaction that holds the queue's row, so
 * limits hold exactly however many nodes dequeue at once. A zero limit means "no limit".
 *
 * <p>
 * Nodes declaring the same queue write their definition to the database when they start;
 * the last node started wins, so declare a queue with the same limits everywhere.
 *
 * @param name 1-100 letters, digits and {@code ._:-}
 * @param concurrency how many items of the queue run at once across the cluster (a
 * workflow from its admission to its close, an activity attempt from its claim to its
 * outcome); 0: unlimited
 * @param perNodeConcurrency how many items run at once on one node; 0: unlimited. A dead
 * node's activity attempts free their slots within {@code dead-after}; a queued workflow
 * keeps its slot while open, on whichever node takes it over
 * @param rateLimit how many items may start per {@code ratePeriod}, cluster-wide (a
 * sliding window); 0: unlimited
 * @param ratePeriod the window of the rate limit
 * @param partitionConcurrency how many items of one partition key run at once; 0:
 * unlimited. A partition at its limit does not hold back the others
 */
public record QueueDefinition(String name, int concurrency, int perNodeConcurrency, int rateLimit, Duration ratePeriod,
		int partitionConcurrency) {

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

	public QueueDefinition {
		if (name == null || !NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("A queue name is 1-100 letters, digits and ._:- (got '" + name + "')");
		}
		if (concurrency < 0 || perNodeConcurrency < 0 || rateLimit < 0 || partitionConcurrency < 0) {
			throw new IllegalArgumentException("Limits of queue '" + name + "' must not be negative");
		}
		if (ratePeriod == null || ratePeriod.isNegative() || ratePeriod.isZero()) {
			throw new IllegalArgumentException("The rate period of queue '" + name + "' must be positive");
		}
	}

	/** A queue without limits yet; see the {@code with} methods. */
	public static QueueDefinition named(String name) {
		return new QueueDefinition(name, 0, 0, 0, Duration.ofSeconds(1), 0);
	}

	/** With a cluster-wide concurrency limit (0: unlimited). */
	public QueueDefinition withConcurrency(int value) {
		return new QueueDefinition(this.name, value, this.perNodeConcurrency, this.rateLimit, this.ratePeriod,
				this.partitionConcurrency);
	}

	/** With a per-node concurrency limit (0: unlimited). */
	public QueueDefinition withPerNodeConcurrency(int value) {
		return new QueueDefinition(this.name, this.concurrency, value, this.rateLimit, this.ratePeriod,
				this.partitionConcurrency);
	}

	/**
	 * With a cluster-wide rate limit: at most {@code starts} per {@code period} (0:
	 * unlimited).
	 */
	public QueueDefinition withRateLimit(int starts, Duration period) {
		return new QueueDefinition(this.name, this.concurrency, this.perNodeConcurrency, starts, period,
				this.partitionConcurrency);
	}

	/** With a concurrency limit per partition key (0: unlimited). */
	public QueueDefinition withPartitionConcurrency(int value) {
		return new QueueDefinition(this.name, this.concurrency, this.perNodeConcurrency, this.rateLimit,
				this.ratePeriod, value);
	}

	/** Whether any limit is set. */
	public boolean limits() {
		return this.concurrency > 0 || this.perNodeConcurrency > 0 || this.rateLimit > 0
				|| this.partitionConcurrency > 0;
	}

	/** Whether a name is a valid queue name. */
	public static boolean isValidName(@Nullable String name) {
		return name != null && NAME.matcher(name).matches();
	}

}
