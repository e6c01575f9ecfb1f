package dev.durable.workflow.client;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * An activity of an open run that has not finished.
 *
 * @param activityId its sequence number in the run
 * @param activityType its type name
 * @param attempt the attempt running or next to run
 * @param scheduledTime when it was first scheduled
 * @param nextAttemptTime when the next attempt may start
 * @param lastFailure a description of the last failed attempt, or {@code null}
 */
public record PendingActivity(long activityId, String activityType, int attempt, Instant scheduledTime,
		Instant nextAttemptTime, @Nullable String lastFailure) {

}
