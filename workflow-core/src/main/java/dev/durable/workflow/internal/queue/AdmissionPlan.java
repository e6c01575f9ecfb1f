package dev.durable.workflow.internal.queue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.engine.QueueDefinition;

/**
 * The arithmetic of one admission round of a queue, with no database: given the queue's
 * limits, what holds its slots now and how many items started inside the rate window, it
 * takes candidates in the order given (the caller orders them: priority, then arrival)
 * and admits each that fits every limit. A candidate whose partition is at its limit is
 * skipped, not waited for, so one partition at its limit does not hold back the others. A
 * zero limit is no limit. Not thread-safe: one plan per round, fed one page of candidates
 * after another.
 */
public final class AdmissionPlan {

	/**
	 * An item waiting in a queue.
	 *
	 * @param key what the source admits it by (a run id, an activity's row)
	 * @param partitionKey its partition, or {@code null}: it is then held by the
	 * queue-wide limits only
	 * @param <K> the key type
	 */
	public record Candidate<K>(K key, @Nullable String partitionKey) {
	}

	/**
	 * The items holding slots of a queue.
	 *
	 * @param running items holding a slot, cluster-wide
	 * @param runningOnNode of those, the items on the admitting node
	 * @param runningByPartition of those, the items per partition key (items without a
	 * key are not in it)
	 */
	public record Occupancy(long running, long runningOnNode, Map<String, Long> runningByPartition) {

		/** Nothing running. */
		public static final Occupancy NONE = new Occupancy(0, 0, Map.of());

		public Occupancy {
			runningByPartition = Map.copyOf(runningByPartition);
		}

		/** The items of both, for a queue whose slots items of several kinds hold. */
		public Occupancy plus(Occupancy other) {
			Map<String, Long> partitions = new HashMap<>(this.runningByPartition);
			other.runningByPartition.forEach((key, count) -> partitions.merge(key, count, Long::sum));
			return new Occupancy(this.running + other.running, this.runningOnNode + other.runningOnNode, partitions);
		}

	}

	/** What stops a round from admitting more. */
	public enum Limit {

		/** Nothing: the candidates ran out. */
		NONE,

		/** The cluster-wide concurrency. */
		CONCURRENCY,

		/** The rate limit: the window is full. */
		RATE,

		/**
		 * The per-node concurrency of the admitting node (other nodes may still admit).
		 */
		NODE,

		/** The most one round admits (the caller may run another round at once). */
		BATCH

	}

	private final QueueDefinition limits;

	private long running;

	private long runningOnNode;

	private final Map<String, Long> byPartition;

	private long startedInWindow;

	private int budget;

	/**
	 * @param limits the queue's limits
	 * @param occupancy what holds its slots now
	 * @param startedInWindow items started inside the rate window (ignored without a rate
	 * limit)
	 * @param max the most this round admits
	 */
	public AdmissionPlan(QueueDefinition limits, Occupancy occupancy, long startedInWindow, int max) {
		if (max < 0) {
			throw new IllegalArgumentException("max must not be negative: " + max);
		}
		this.limits = limits;
		this.running = occupancy.running();
		this.runningOnNode = occupancy.runningOnNode();
		this.byPartition = new HashMap<>(occupancy.runningByPartition());
		this.startedInWindow = startedInWindow;
		this.budget = max;
	}

	/**
	 * How many more items fit the queue-wide limits (concurrency, per node, rate, batch);
	 * never negative.
	 */
	public long room() {
		return Math.max(0,
				Math.min(
						Math.min(left(this.limits.concurrency(), this.running),
								left(this.limits.perNodeConcurrency(), this.runningOnNode)),
						Math.min(left(this.limits.rateLimit(), this.startedInWindow), this.budget)));
	}

	private static long left(int limit, long used) {
		return (limit > 0) ? limit - used : Long.MAX_VALUE;
	}

	/**
	 * The limit that leaves no room, the cluster-wide ones first (so {@link Limit#NODE}
	 * means the cluster still has room that other nodes may use), or {@link Limit#NONE}
	 * while there is room.
	 */
	public Limit full() {
		if (left(this.limits.concurrency(), this.running) <= 0) {
			return Limit.CONCURRENCY;
		}
		if (left(this.limits.rateLimit(), this.startedInWindow) <= 0) {
			return Limit.RATE;
		}
		if (left(this.limits.perNodeConcurrency(), this.runningOnNode) <= 0) {
			return Limit.NODE;
		}
		return (this.budget <= 0) ? Limit.BATCH : Limit.NONE;
	}

	/**
	 * The partitions at their limit: their candidates need not be fetched. Empty without
	 * a partition limit.
	 */
	public Set<String> fullPartitions() {
		Set<String> full = new HashSet<>();
		int limit = this.limits.partitionConcurrency();
		if (limit > 0) {
			this.byPartition.forEach((key, count) -> {
				if (count >= limit) {
					full.add(key);
				}
			});
		}
		return full;
	}

	/**
	 * Admits, in their order, the candidates that fit, and counts them as running from
	 * now on.
	 * @return the admitted candidates, in the order given
	 */
	public <K> List<Candidate<K>> take(List<Candidate<K>> ordered) {
		List<Candidate<K>> admitted = new ArrayList<>();
		int partitionLimit = this.limits.partitionConcurrency();
		for (Candidate<K> candidate : ordered) {
			if (room() == 0) {
				break;
			}
			String partition = candidate.partitionKey();
			if (partitionLimit > 0 && partition != null
					&& this.byPartition.getOrDefault(partition, 0L) >= partitionLimit) {
				continue; // its partition is full: the next candidate may be of another
			}
			if (partition != null) {
				this.byPartition.merge(partition, 1L, Long::sum);
			}
			this.running++;
			this.runningOnNode++;
			this.startedInWindow++;
			this.budget--;
			admitted.add(candidate);
		}
		return admitted;
	}

}
