package dev.durable.workflow.client.schedule;

import dev.durable.workflow.failure.WorkflowException;

/** No schedule has this id in the namespace. */
public class ScheduleNotFoundException extends WorkflowException {

	private final String scheduleId;

	public ScheduleNotFoundException(String message, String scheduleId) {
		super(message);
		this.scheduleId = scheduleId;
	}

	public String getScheduleId() {
		return this.scheduleId;
	}

}
