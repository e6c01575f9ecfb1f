package dev.durable.workflow.internal.taskqueue;

import java.time.Instant;
import java.util.UUID;

import dev.durable.workflow.activity.ActivityOptions;

/**
 * An attempt of a task-queue activity claimed by this node.
 *
 * @param runId the run
 * @param seq the activity's sequence number in the run
 * @param namespace the run's namespace
 * @param workflowId the run's workflow id
 * @param workflowType the run's workflow type (for the logs), or {@code null} when the
 * run is gone
 * @param activityType the activity type
 * @param input the packed arguments
 * @param options the options it was scheduled with
 * @param attempt the attempt number
 * @param scheduledAt when the activity was first scheduled
 * @param dueAt when the attempt became due (for the schedule-to-start latency)
 * @param heartbeatDetails the last heartbeat of an earlier attempt, or {@code null}
 * @param token the attempt's token
 * @param startedAt when it was claimed
 * @param runChain the stored chain of its run (its headers), or {@code null}
 */
record ClaimedActivity(UUID runId, long seq, String namespace, String workflowId, String workflowType,
		String activityType, byte[] input, ActivityOptions options, int attempt, Instant scheduledAt, Instant dueAt,
		byte[] heartbeatDetails, UUID token, Instant startedAt, byte[] runChain) {
}
