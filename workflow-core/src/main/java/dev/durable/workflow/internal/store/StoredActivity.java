package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.util.UUID;

import dev.durable.workflow.activity.ActivityOptions;

/**
 * A pending activity as stored.
 *
 * @param runId run id
 * @param seq sequence number in the run
 * @param activityType type name
 * @param input packed arguments
 * @param options options
 * @param attempt the next attempt number (0: recreated by a reset, never attempted)
 * @param scheduledAt first schedule time
 * @param nextAttemptAt when the next attempt may start
 * @param lastFailure the last failure (JSON of FailureInfo), or {@code null}
 * @param heartbeatDetails the last heartbeat details, or {@code null}
 */
public record StoredActivity(UUID runId, long seq, String activityType, byte[] input, ActivityOptions options,
		int attempt, Instant scheduledAt, Instant nextAttemptAt, byte[] lastFailure, byte[] heartbeatDetails) {

}
