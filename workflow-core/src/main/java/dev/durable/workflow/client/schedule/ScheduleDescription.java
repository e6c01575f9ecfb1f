package dev.durable.workflow.client.schedule;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A schedule as stored, with its state.
 *
 * @param scheduleId the schedule id
 * @param schedule spec, action, policies, pause state and the actions that remain
 * @param nextActionTimes the next times it fires (jitter included), soonest first
 * @param recentActions the latest firings, newest first (the last 10 are kept)
 * @param runningWorkflowIds workflows it started that are still running
 * @param actionCount workflows started
 * @param skippedCount firings skipped (overlap policy, workflow id in use)
 * @param missedCount firings missed because they were later than the catch-up window
 * @param bufferedCount firings waiting for a running workflow to close
 * @param createdAt when it was created (engine clock)
 * @param updatedAt when it was last changed by a person (create, update, pause, unpause)
 */
public record ScheduleDescription(String scheduleId, Schedule schedule, List<Instant> nextActionTimes,
		List<ScheduleActionResult> recentActions, List<String> runningWorkflowIds, long actionCount, long skippedCount,
		long missedCount, int bufferedCount, Instant createdAt, Instant updatedAt) {

	public ScheduleDescription {
		nextActionTimes = List.copyOf(nextActionTimes);
		recentActions = List.copyOf(recentActions);
		runningWorkflowIds = List.copyOf(runningWorkflowIds);
	}

	/**
	 * Limited actions: how many more workflows the spec's times may start ({@code 0}: the
	 * schedule takes no more scheduled actions until an update gives it more), or
	 * {@code null} when unlimited. The same as {@code schedule().remainingActions()}.
	 */
	public @Nullable Long remainingActions() {
		return this.schedule.remainingActions();
	}

}
