package dev.durable.workflow.failure;

/** Which timeout fired. */
public enum TimeoutType {

	START_TO_CLOSE, SCHEDULE_TO_CLOSE, SCHEDULE_TO_START, HEARTBEAT

}
