package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/** No node registered this workflow type. */
public class UnknownWorkflowTypeException extends WorkflowException {

	public UnknownWorkflowTypeException(String message) {
		super(message);
	}

}
