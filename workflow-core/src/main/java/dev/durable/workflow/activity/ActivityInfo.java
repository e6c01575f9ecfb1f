package dev.durable.workflow.activity;

import java.time.Instant;
import java.util.UUID;

/**
 * Facts about the running activity attempt.
 *
 * @param workflowId the calling workflow's id
 * @param runId the calling run's id
 * @param activityId the activity's sequence number within the run
 * @param activityType the activity type name
 * @param attempt the attempt number, starting at 1
 * @param scheduledTime when the activity was first scheduled
 */
public record ActivityInfo(String workflowId, UUID runId, long activityId, String activityType, int attempt,
		Instant scheduledTime) {

}
