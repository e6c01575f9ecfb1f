package dev.durable.workflow.client.batch;

import dev.durable.workflow.failure.WorkflowException;

/**
 * A batch with this id exists already with a different request: a retry of the same
 * request returns the existing batch instead, so this means two different batches were
 * given one id.
 */
public class BatchIdConflictException extends WorkflowException {

	private final String batchId;

	public BatchIdConflictException(String message, String batchId) {
		super(message);
		this.batchId = batchId;
	}

	public String getBatchId() {
		return this.batchId;
	}

}
