package dev.durable.workflow.internal.runtime;

import dev.durable.workflow.failure.WorkflowException;

/**
 * A workflow task could not complete (non-determinism, unexpected exception, timeout); it
 * is retried.
 */
public class WorkflowTaskFailedException extends WorkflowException {

	public WorkflowTaskFailedException(String message, Throwable cause) {
		super(message, cause);
	}

}
