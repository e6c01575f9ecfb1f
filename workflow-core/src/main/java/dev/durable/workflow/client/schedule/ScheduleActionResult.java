package dev.durable.workflow.client.schedule;

import java.time.Instant;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * One firing of a schedule and what came of it.
 *
 * @param nominalTime the time the firing stands for (the spec's time; the trigger or
 * backfill time)
 * @param actualTime when it was processed (engine clock)
 * @param origin scheduled, triggered or backfilled
 * @param outcome started, waiting for the running workflow (buffered), or skipped
 * @param workflowId the workflow id it started or would have started
 * @param runId the run it started, or {@code null}
 * @param reason why it was skipped or buffered, or {@code null}
 */
public record ScheduleActionResult(Instant nominalTime, Instant actualTime, Origin origin, Outcome outcome,
		String workflowId, @Nullable UUID runId, @Nullable String reason) {

	/** Where a firing came from. */
	public enum Origin {

		SCHEDULED, TRIGGERED, BACKFILLED

	}

	/** What came of a firing. */
	public enum Outcome {

		/** A workflow was started. */
		STARTED,
		/** Waiting for the schedule's running workflow to close (overlap policy). */
		BUFFERED,
		/** Not started: overlap policy, workflow id in use, or the start was refused. */
		SKIPPED

	}

}
