package dev.durable.workflow.client.batch;

import dev.durable.workflow.failure.WorkflowException;

/** No batch has this id in the namespace. */
public class BatchNotFoundException extends WorkflowException {

	private final String batchId;

	public BatchNotFoundException(String message, String batchId) {
		super(message);
		this.batchId = batchId;
	}

	public String getBatchId() {
		return this.batchId;
	}

}
