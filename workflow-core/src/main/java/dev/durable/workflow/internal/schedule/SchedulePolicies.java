package dev.durable.workflow.internal.schedule;

import java.time.Duration;

import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;

/**
 * A schedule's policies as stored (jsonb).
 *
 * @param overlapPolicy overlap policy
 * @param catchupWindow catch-up window
 */
record SchedulePolicies(ScheduleOverlapPolicy overlapPolicy, Duration catchupWindow) {
}
