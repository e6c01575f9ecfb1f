package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/** No run matches (unknown workflow id or run id). */
public class WorkflowNotFoundException extends WorkflowException {

	public WorkflowNotFoundException(String message) {
		super(message);
	}

}
