package dev.durable.workflow.client.schedule;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A schedule in a list.
 *
 * @param scheduleId the schedule id
 * @param workflowType the workflow type it starts
 * @param spec when it fires
 * @param paused whether it is paused
 * @param nextActionTime when it fires next, or {@code null} when it never will
 */
public record ScheduleSummary(String scheduleId, String workflowType, ScheduleSpec spec, boolean paused,
		@Nullable Instant nextActionTime) {
}
