package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/**
 * The update validator rejected the update; nothing was recorded in history. The cause is
 * the validator's failure.
 */
public class WorkflowUpdateRejectedException extends WorkflowException {

	public WorkflowUpdateRejectedException(String message) {
		super(message);
	}

	public WorkflowUpdateRejectedException(String message, Throwable cause) {
		super(message, cause);
	}

}
