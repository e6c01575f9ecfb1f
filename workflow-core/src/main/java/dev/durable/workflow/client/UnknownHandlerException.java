package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/**
 * The workflow has no signal, query or update handler of that name (and no dynamic one).
 */
public class UnknownHandlerException extends WorkflowException {

	public UnknownHandlerException(String message) {
		super(message);
	}

	public UnknownHandlerException(String message, Throwable cause) {
		super(message, cause);
	}

}
