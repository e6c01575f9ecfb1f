package dev.durable.workflow.client;

import dev.durable.workflow.failure.WorkflowException;

/**
 * An activity operation named an activity the run does not wait for: no activity of that
 * id was scheduled, or its outcome is already recorded (completed, failed or canceled).
 */
public class ActivityNotPendingException extends WorkflowException {

	public ActivityNotPendingException(String message) {
		super(message);
	}

}
