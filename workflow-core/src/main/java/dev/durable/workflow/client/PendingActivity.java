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
 * @param state whether its attempt waits to start, runs, or waits for the completion
 * client
 * @param taskQueue the task queue its attempts are claimed from, or {@code null} when the
 * node that owns the run runs them
 * @param lastStartedTime when the current attempt was claimed, or gave out its task
 * token, or {@code null} when that is not recorded (an attempt without a task queue that
 * runs without one)
 * @param lastHeartbeatTime when the current attempt last heartbeated, as far as recorded
 * (the heartbeats of an attempt without a task queue are recorded at most once a second),
 * or {@code null}
 * @param pausedTime when an operator, or its retry policy after its attempts were
 * exhausted, paused it ({@link WorkflowHandle#pauseActivity}), or {@code null} when it is
 * not paused: no new attempt starts until it is unpaused or reset
 * @param pauseReason the reason given with the pause, or {@code null}
 * @param options the options its attempts to come run with (as scheduled, or as an
 * operator updated them), or {@code null} when not known
 */
public record PendingActivity(long activityId, String activityType, int attempt, Instant scheduledTime,
		Instant nextAttemptTime, @Nullable String lastFailure, PendingActivityState state, @Nullable String taskQueue,
		@Nullable Instant lastStartedTime, @Nullable Instant lastHeartbeatTime, @Nullable Instant pausedTime,
		@Nullable String pauseReason, @Nullable ActivityAttemptOptions options) {

	/** A pending activity that is not paused, its options not known. */
	public PendingActivity(long activityId, String activityType, int attempt, Instant scheduledTime,
			Instant nextAttemptTime, @Nullable String lastFailure, PendingActivityState state,
			@Nullable String taskQueue, @Nullable Instant lastStartedTime, @Nullable Instant lastHeartbeatTime) {
		this(activityId, activityType, attempt, scheduledTime, nextAttemptTime, lastFailure, state, taskQueue,
				lastStartedTime, lastHeartbeatTime, null, null, null);
	}

	/** Whether it is paused: no new attempt starts until it is unpaused or reset. */
	public boolean isPaused() {
		return this.pausedTime != null;
	}

	/**
	 * A pending activity known by its attempt and times only: scheduled, without a task
	 * queue.
	 */
	public PendingActivity(long activityId, String activityType, int attempt, Instant scheduledTime,
			Instant nextAttemptTime, @Nullable String lastFailure) {
		this(activityId, activityType, attempt, scheduledTime, nextAttemptTime, lastFailure,
				PendingActivityState.SCHEDULED, null, null, null);
	}

}
