package dev.durable.workflow;

/** Which timeout fired. */
public enum TimeoutType {

	START_TO_CLOSE, SCHEDULE_TO_CLOSE, SCHEDULE_TO_START, HEARTBEAT

}
