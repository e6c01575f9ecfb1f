package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * @param fair whether items are admitted round-robin across partition keys within a
 * priority (each key's oldest first, one per key and turn), rather than in order of
 * arrival: a key with many waiting items does not delay a key with few. Items without a
 * key count as one key
 * @param partitionWeights with {@code fair}: admissions per turn of a partition key (a
 * key of weight 3 gets 3 for each 1 of a key of weight 1); keys not listed weigh 1
 * @param partitionExcess what a workflow start does beyond the partition concurrency:
 * wait ({@link ExcessStrategy#QUEUE}, the default), or any other strategy (which needs a
 * partition concurrency)
 * @param rateExcess what a workflow start does when the rate window is full (the starts
 * admitted in it and those waiting reach the rate limit): wait
 * ({@link ExcessStrategy#QUEUE}, the default) or be dropped ({@link ExcessStrategy#DROP},
 * which needs a rate limit)
 * @param admissionTimeout how long a workflow start may wait in the queue: one that
 * waited longer closes as timed out (type {@code SCHEDULE_TO_START}) instead of running
 * late; {@code null}: no limit
 */
public record QueueDefinition(String name, int concurrency, int perNodeConcurrency, int rateLimit, Duration ratePeriod,
		int partitionConcurrency, boolean fair, Map<String, Integer> partitionWeights, ExcessStrategy partitionExcess,
		ExcessStrategy rateExcess, @Nullable Duration admissionTimeout) {

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

	/** The highest weight of a partition key. */
	public static final int MAX_WEIGHT = 1000;

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
		partitionWeights = Map.copyOf((partitionWeights != null) ? partitionWeights : Map.of());
		if (!partitionWeights.isEmpty() && !fair) {
			throw new IllegalArgumentException(
					"Partition weights of queue '" + name + "' need fair admission: add withFairness()");
		}
		partitionWeights.forEach((key, weight) -> {
			if (key.isBlank() || key.length() > 255 || weight < 1 || weight > MAX_WEIGHT) {
				throw new IllegalArgumentException("A partition weight of queue '" + name + "' is 1-" + MAX_WEIGHT
						+ " for a key of 1-255 characters (got '" + key + "' = " + weight + ")");
			}
		});
		partitionExcess = (partitionExcess != null) ? partitionExcess : ExcessStrategy.QUEUE;
		rateExcess = (rateExcess != null) ? rateExcess : ExcessStrategy.QUEUE;
		if (partitionExcess != ExcessStrategy.QUEUE && partitionConcurrency == 0) {
			throw new IllegalArgumentException("The partition excess strategy " + partitionExcess + " of queue '" + name
					+ "' needs a partition concurrency");
		}
		if (rateExcess != ExcessStrategy.QUEUE && (rateExcess != ExcessStrategy.DROP || rateLimit == 0)) {
			throw new IllegalArgumentException("The rate excess strategy of queue '" + name
					+ "' is QUEUE or DROP, and DROP needs a rate limit (got " + rateExcess + ")");
		}
		if (admissionTimeout != null && (admissionTimeout.isNegative() || admissionTimeout.isZero())) {
			throw new IllegalArgumentException("The admission timeout of queue '" + name + "' must be positive");
		}
	}

	/**
	 * The limits of the first round of flow control: first come, first served; excess
	 * waits.
	 */
	public QueueDefinition(String name, int concurrency, int perNodeConcurrency, int rateLimit, Duration ratePeriod,
			int partitionConcurrency) {
		this(name, concurrency, perNodeConcurrency, rateLimit, ratePeriod, partitionConcurrency, false, Map.of(),
				ExcessStrategy.QUEUE, ExcessStrategy.QUEUE, null);
	}

	/** A queue without limits yet; see the {@code with} methods. */
	public static QueueDefinition named(String name) {
		return new QueueDefinition(name, 0, 0, 0, Duration.ofSeconds(1), 0);
	}

	/** With a cluster-wide concurrency limit (0: unlimited). */
	public QueueDefinition withConcurrency(int value) {
		return new QueueDefinition(this.name, value, this.perNodeConcurrency, this.rateLimit, this.ratePeriod,
				this.partitionConcurrency, this.fair, this.partitionWeights, this.partitionExcess, this.rateExcess,
				this.admissionTimeout);
	}

	/** With a per-node concurrency limit (0: unlimited). */
	public QueueDefinition withPerNodeConcurrency(int value) {
		return new QueueDefinition(this.name, this.concurrency, value, this.rateLimit, this.ratePeriod,
				this.partitionConcurrency, this.fair, this.partitionWeights, this.partitionExcess, this.rateExcess,
				this.admissionTimeout);
	}

	/**
	 * With a cluster-wide rate limit: at most {@code starts} per {@code period} (0:
	 * unlimited).
	 */
	public QueueDefinition withRateLimit(int starts, Duration period) {
		return new QueueDefinition(this.name, this.concurrency, this.perNodeConcurrency, starts, period,
				this.partitionConcurrency, this.fair, this.partitionWeights, this.partitionExcess, this.rateExcess,
				this.admissionTimeout);
	}

	/** With a concurrency limit per partition key (0: unlimited). */
	public QueueDefinition withPartitionConcurrency(int value) {
		return new QueueDefinition(this.name, this.concurrency, this.perNodeConcurrency, this.rateLimit,
				this.ratePeriod, value, this.fair, this.partitionWeights, this.partitionExcess, this.rateExcess,
				this.admissionTimeout);
	}

	/**
	 * With fair admission: round-robin across partition keys within a priority, instead
	 * of arrival order.
	 */
	public QueueDefinition withFairness() {
		return new QueueDefinition(this.name, this.concurrency, this.perNodeConcurrency, this.rateLimit,
				this.ratePeriod, this.partitionConcurrency, true, this.partitionWeights, this.partitionExcess,
				this.rateExcess, this.admissionTimeout);
	}

	/**
	 * With fair admission where the key gets {@code weight} admissions per turn (1-1000;
	 * keys not given weigh 1).
	 */
	public QueueDefinition withPartitionWeight(String partitionKey, int weight) {
		Map<String, Integer> weights = new LinkedHashMap<>(this.partitionWeights);
		weights.put(partitionKey, weight);
		return new QueueDefinition(this.name, this.concurrency, this.perNodeConcurrency, this.rateLimit,
				this.ratePeriod, this.partitionConcurrency, true, weights, this.partitionExcess, this.rateExcess,
				this.admissionTimeout);
	}

	/**
	 * With what a workflow start beyond the partition concurrency does (the default:
	 * {@link ExcessStrategy#QUEUE}).
	 */
	public QueueDefinition withPartitionExcess(ExcessStrategy strategy) {
		return new QueueDefinition(this.name, this.concurrency, this.perNodeConcurrency, this.rateLimit,
				this.ratePeriod, this.partitionConcurrency, this.fair, this.partitionWeights, strategy, this.rateExcess,
				this.admissionTimeout);
	}

	/**
	 * With what a workflow start does when the rate window is full:
	 * {@link ExcessStrategy#QUEUE} (the default) or {@link ExcessStrategy#DROP}.
	 */
	public QueueDefinition withRateExcess(ExcessStrategy strategy) {
		return new QueueDefinition(this.name, this.concurrency, this.perNodeConcurrency, this.rateLimit,
				this.ratePeriod, this.partitionConcurrency, this.fair, this.partitionWeights, this.partitionExcess,
				strategy, this.admissionTimeout);
	}

	/**
	 * With the longest a workflow start may wait in the queue ({@code null}: no limit).
	 */
	public QueueDefinition withAdmissionTimeout(@Nullable Duration timeout) {
		return new QueueDefinition(this.name, this.concurrency, this.perNodeConcurrency, this.rateLimit,
				this.ratePeriod, this.partitionConcurrency, this.fair, this.partitionWeights, this.partitionExcess,
				this.rateExcess, timeout);
	}

	/** Whether any limit is set. */
	public boolean limits() {
		return this.concurrency > 0 || this.perNodeConcurrency > 0 || this.rateLimit > 0
				|| this.partitionConcurrency > 0;
	}

	/** The weight of a partition key (1 unless given). */
	public int weightOf(@Nullable String partitionKey) {
		return (partitionKey != null) ? this.partitionWeights.getOrDefault(partitionKey, 1) : 1;
	}

	/** Whether a name is a valid queue name. */
	public static boolean isValidName(@Nullable String name) {
		return name != null && NAME.matcher(name).matches();
	}

}
