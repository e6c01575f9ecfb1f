package dev.durable.workflow.client.schedule;

import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.UnknownWorkflowTypeException;

/**
 * Schedules: workflows started at the times of a {@link ScheduleSpec}, by whichever
 * worker node gets there first, each firing exactly once. From
 * {@code WorkflowClient.schedules()}.
 * <p>
 * Schedule ids follow the rules of workflow ids (1-255 letters, digits and
 * {@code ._:@-}). Times come from the engine's clock.
 */
public interface ScheduleClient {

	/**
	 * Creates a schedule; it fires at the spec's times after now.
	 * @throws ScheduleAlreadyExistsException when the id is taken
	 * @throws UnknownWorkflowTypeException when no node registered the action's workflow
	 * type
	 * @throws IllegalArgumentException when the id, spec or action is invalid
	 */
	void create(String scheduleId, Schedule schedule);

	/**
	 * The schedule with its state, next times and recent actions.
	 * @throws ScheduleNotFoundException when there is no such schedule
	 */
	ScheduleDescription describe(String scheduleId);

	/** Every schedule of the namespace, by id. */
	List<ScheduleSummary> list();

	/** Stops firing until {@link #unpause}; the note says why ({@code null}: no note). */
	void pause(String scheduleId, @Nullable String note);

	/**
	 * Fires again from now on (times that passed while paused are not caught up); the
	 * note replaces the pause note ({@code null}: no note).
	 */
	void unpause(String scheduleId, @Nullable String note);

	/**
	 * Fires once now, with the schedule's overlap policy. An explicit request: it starts
	 * also when no limited actions remain, and does not use one.
	 */
	default ScheduleActionResult trigger(String scheduleId) {
		return trigger(scheduleId, null);
	}

	/**
	 * Fires once now.
	 * @param overlapPolicy the policy for this firing; {@code null}: the schedule's
	 * @return what came of it
	 */
	ScheduleActionResult trigger(String scheduleId, @Nullable ScheduleOverlapPolicy overlapPolicy);

	/**
	 * Fires for each of the spec's times in [start, end), as if they had happened, in
	 * order (whatever remains of limited actions, and without using any).
	 */
	default List<ScheduleActionResult> backfill(String scheduleId, Instant start, Instant end) {
		return backfill(scheduleId, start, end, null);
	}

	/**
	 * Fires for each of the spec's times in [start, end), as if they had happened, in
	 * order. A time already backfilled is not fired again (while its record is kept).
	 * @param overlapPolicy the policy for these firings; {@code null}: the schedule's
	 * @return what came of each
	 */
	List<ScheduleActionResult> backfill(String scheduleId, Instant start, Instant end,
			@Nullable ScheduleOverlapPolicy overlapPolicy);

	/**
	 * Changes the schedule: the function gets the current one and returns the new spec,
	 * action, policies, pause state and remaining actions (the function gets what remains
	 * now, so {@code s -> s.withRemainingActions(s.remainingActions() + 5)} adds five).
	 * The next times are computed anew from now.
	 */
	void update(String scheduleId, UnaryOperator<Schedule> change);

	/** Deletes the schedule: no more firings; workflows it started keep running. */
	void delete(String scheduleId);

}
