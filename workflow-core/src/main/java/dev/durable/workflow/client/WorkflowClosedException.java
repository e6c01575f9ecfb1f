package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/** The run is closed: it accepts no more signals, updates or cancel requests. */
public class WorkflowClosedException extends WorkflowException {

	public WorkflowClosedException(String message) {
		super(message);
	}

}
