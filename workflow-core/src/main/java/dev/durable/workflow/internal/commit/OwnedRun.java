package dev.durable.workflow.internal.commit;

import dev.durable.workflow.internal.store.RunChain;

/**
 * What the commit of a task needs to know of the run beyond its row: what the owning node
 * holds in memory about it (its cache slot).
 */
public interface OwnedRun {

	/** The epoch the node holds the run at: the commit's compare-and-set checks it. */
	long epoch();

	/** The run's retry policy, cron schedule and task timeout, or {@code null}. */
	RunChain chain();

	/**
	 * The run's input when this node started it (a retry starts with it), else
	 * {@code null}.
	 */
	byte[] input();

	/**
	 * Whether the activity has a row in the database, which the commit that ends it
	 * deletes.
	 */
	boolean hasStoredActivity(long seq);

}
