package dev.durable.workflow.engine;

/**
 * What a queue does with a workflow start beyond one of its limits: the per-partition
 * concurrency ({@link QueueDefinition#withPartitionExcess}) or the rate limit
 * ({@link QueueDefinition#withRateExcess}, {@link #QUEUE} or {@link #DROP} only). The
 * decision is taken by the start, in its transaction; activities on the queue's task
 * queue always wait.
 */
public enum ExcessStrategy {

	/** The start waits in the queue until it fits (the default). */
	QUEUE,

	/**
	 * The newest start gives way to the runs its key already has: it is canceled before
	 * anything is written, and the caller gets {@code StartCanceledException} (REST: 409
	 * {@code START_CANCELED}).
	 */
	CANCEL_NEWEST,

	/**
	 * The start waits in the queue, and the oldest runs of its partition key are asked to
	 * cancel (an ordinary cancel request, admitted runs first) so that it fits: the
	 * newest start wins, as with a newer deploy.
	 */
	CANCEL_OLDEST_RUNNING,

	/**
	 * The start is dropped and nothing is written: the caller gets
	 * {@code StartDroppedException} (REST: 429 {@code START_DROPPED}), and may retry
	 * later.
	 */
	DROP

}
