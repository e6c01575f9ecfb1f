package dev.durable.workflow.client;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.WorkflowException;

/**
 * A start into a flow-control queue was dropped by the queue's excess strategy
 * ({@code ExcessStrategy.DROP}): its partition key was at its concurrency, or the rate
 * window was full. Nothing was written: no run, no workflow id taken. Over REST: 429 with
 * the problem code {@code START_DROPPED}. Retrying later may succeed.
 */
public class StartDroppedException extends WorkflowException {

	/** The limit the start was beyond. */
	public enum Limit {

		/** The partition key's concurrency (running and waiting runs of the key). */
		PARTITION_CONCURRENCY,

		/** The rate limit (starts admitted in the window and those waiting). */
		RATE_LIMIT

	}

	private final String workflowId;

	private final String queue;

	private final @Nullable String partitionKey;

	private final Limit limit;

	/**
	 * @param message the message
	 * @param workflowId the workflow id the start had
	 * @param queue the queue
	 * @param partitionKey the start's partition key, or {@code null}
	 * @param limit the limit it was beyond
	 */
	public StartDroppedException(String message, String workflowId, String queue, @Nullable String partitionKey,
			Limit limit) {
		super(message);
		this.workflowId = workflowId;
		this.queue = queue;
		this.partitionKey = partitionKey;
		this.limit = limit;
	}

	public String getWorkflowId() {
		return this.workflowId;
	}

	public String getQueue() {
		return this.queue;
	}

	/** The start's partition key, or {@code null}. */
	public @Nullable String getPartitionKey() {
		return this.partitionKey;
	}

	public Limit getLimit() {
		return this.limit;
	}

}
