package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/**
 * A start into a flow-control queue gave way to the runs its partition key already has
 * ({@code ExcessStrategy.CANCEL_NEWEST}): the key was at its concurrency, so the newest
 * start, this one, was canceled before it was written (no run, no workflow id taken).
 * Over REST: 409 with the problem code {@code START_CANCELED}. Unlike a dropped start
 * ({@link StartDroppedException}), retrying is pointless until the key's runs close.
 */
public class StartCanceledException extends WorkflowException {

	private final String workflowId;

	private final String queue;

	private final String partitionKey;

	/**
	 * @param message the message
	 * @param workflowId the workflow id the start had
	 * @param queue the queue
	 * @param partitionKey the start's partition key
	 */
	public StartCanceledException(String message, String workflowId, String queue, String partitionKey) {
		super(message);
		this.workflowId = workflowId;
		this.queue = queue;
		this.partitionKey = partitionKey;
	}

	public String getWorkflowId() {
		return this.workflowId;
	}

	public String getQueue() {
		return this.queue;
	}

	public String getPartitionKey() {
		return this.partitionKey;
	}

}
