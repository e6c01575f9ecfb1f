package dev.durable.workflow.client.schedule;

import dev.durable.workflow.failure.WorkflowException;

/** A schedule with this id exists already in the namespace. */
public class ScheduleAlreadyExistsException extends WorkflowException {

	private final String scheduleId;

	public ScheduleAlreadyExistsException(String message, String scheduleId) {
		super(message);
		this.scheduleId = scheduleId;
	}

	public String getScheduleId() {
		return this.scheduleId;
	}

}
