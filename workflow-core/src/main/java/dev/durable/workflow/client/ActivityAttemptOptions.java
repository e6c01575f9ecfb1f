package dev.durable.workflow.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.RetryPolicy;

/**
 * The options a pending activity's attempts to come run with (as it was scheduled, or as
 * an operator changed them with {@link WorkflowHandle#updateActivityOptions}).
 * {@code null} timeouts mean none.
 *
 * @param retryPolicy how its failed attempts are retried
 * @param startToCloseTimeout the maximum time of one attempt
 * @param scheduleToCloseTimeout the maximum time of all attempts, from the first schedule
 * @param heartbeatTimeout the maximum time between two heartbeats of an attempt
 * @param scheduleToStartTimeout the maximum time an attempt of a task-queue activity
 * waits to be claimed
 */
public record ActivityAttemptOptions(RetryPolicy retryPolicy, @Nullable Duration startToCloseTimeout,
		@Nullable Duration scheduleToCloseTimeout, @Nullable Duration heartbeatTimeout,
		@Nullable Duration scheduleToStartTimeout) {

}
