package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/**
 * The workflow id is empty, too long or has characters other than letters, digits and
 * {@code ._:@-}.
 */
public class InvalidWorkflowIdException extends WorkflowException {

	public InvalidWorkflowIdException(String message) {
		super(message);
	}

}
