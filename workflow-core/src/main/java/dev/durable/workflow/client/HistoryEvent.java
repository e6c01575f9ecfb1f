package dev.durable.workflow.client;

import java.time.Instant;
import java.util.Map;

/**
 * One event of a run's history.
 *
 * @param eventId position in the history, from 1
 * @param workflowTask the workflow task that recorded it
 * @param time the task's time
 * @param type the event type (WORKFLOW_STARTED, ACTIVITY_SCHEDULED, TIMER_FIRED, ...)
 * @param attributes the event's attributes; payloads decoded as JSON values where
 * possible
 */
public record HistoryEvent(long eventId, int workflowTask, Instant time, String type, Map<String, Object> attributes) {

}
