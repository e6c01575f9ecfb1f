package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/**
 * The query handler threw, tried to block or issue a command, or the run could not be
 * replayed.
 */
public class QueryFailedException extends WorkflowException {

	public QueryFailedException(String message) {
		super(message);
	}

	public QueryFailedException(String message, Throwable cause) {
		super(message, cause);
	}

}
