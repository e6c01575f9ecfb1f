package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/**
 * The update was accepted but its handler failed with an {@code ApplicationFailure} (the
 * cause), or the run closed before it completed.
 */
public class WorkflowUpdateFailedException extends WorkflowException {

	public WorkflowUpdateFailedException(String message) {
		super(message);
	}

	public WorkflowUpdateFailedException(String message, Throwable cause) {
		super(message, cause);
	}

}
