package dev.durable.workflow.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.RetryPolicy;

/**
 * New options for the attempts to come of a pending activity
 * ({@link WorkflowHandle#updateActivityOptions}): each field given replaces the
 * activity's current one, a {@code null} field keeps it. Start with {@link #of()}:
 * <pre>{@code
 * handle.updateActivityOptions(seq, ActivityOptionsUpdate.of()
 *     .startToCloseTimeout(Duration.ofMinutes(5))
 *     .retryPolicy(RetryPolicy.builder().maximumAttempts(10).build()));
 * }</pre>
 *
 * @param retryPolicy how the failed attempts to come are retried, or {@code null} to keep
 * @param startToCloseTimeout the maximum time of one attempt, or {@code null} to keep
 * @param scheduleToCloseTimeout the maximum time of all attempts from the first schedule,
 * or {@code null} to keep
 * @param heartbeatTimeout the maximum time between heartbeats, or {@code null} to keep
 * @param scheduleToStartTimeout the maximum time an attempt of a task-queue activity
 * waits to be claimed, or {@code null} to keep
 */
public record ActivityOptionsUpdate(@Nullable RetryPolicy retryPolicy, @Nullable Duration startToCloseTimeout,
		@Nullable Duration scheduleToCloseTimeout, @Nullable Duration heartbeatTimeout,
		@Nullable Duration scheduleToStartTimeout) {

	/** An update that changes nothing yet. */
	public static ActivityOptionsUpdate of() {
		return new ActivityOptionsUpdate(null, null, null, null, null);
	}

	/** This update with the retry policy. */
	public ActivityOptionsUpdate retryPolicy(RetryPolicy value) {
		return new ActivityOptionsUpdate(value, this.startToCloseTimeout, this.scheduleToCloseTimeout,
				this.heartbeatTimeout, this.scheduleToStartTimeout);
	}

	/** This update with the start-to-close timeout. */
	public ActivityOptionsUpdate startToCloseTimeout(Duration value) {
		return new ActivityOptionsUpdate(this.retryPolicy, value, this.scheduleToCloseTimeout, this.heartbeatTimeout,
				this.scheduleToStartTimeout);
	}

	/** This update with the schedule-to-close timeout. */
	public ActivityOptionsUpdate scheduleToCloseTimeout(Duration value) {
		return new ActivityOptionsUpdate(this.retryPolicy, this.startToCloseTimeout, value, this.heartbeatTimeout,
				this.scheduleToStartTimeout);
	}

	/** This update with the heartbeat timeout. */
	public ActivityOptionsUpdate heartbeatTimeout(Duration value) {
		return new ActivityOptionsUpdate(this.retryPolicy, this.startToCloseTimeout, this.scheduleToCloseTimeout, value,
				this.scheduleToStartTimeout);
	}

	/** This update with the schedule-to-start timeout. */
	public ActivityOptionsUpdate scheduleToStartTimeout(Duration value) {
		return new ActivityOptionsUpdate(this.retryPolicy, this.startToCloseTimeout, this.scheduleToCloseTimeout,
				this.heartbeatTimeout, value);
	}

	/** Whether the update changes nothing. */
	public boolean isEmpty() {
		return this.retryPolicy == null && this.startToCloseTimeout == null && this.scheduleToCloseTimeout == null
				&& this.heartbeatTimeout == null && this.scheduleToStartTimeout == null;
	}

}
