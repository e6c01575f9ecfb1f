package dev.durable.workflow.activity;

import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.internal.support.Providers;

/** The running activity attempt, for activity code: info, heartbeats, cancellation. */
public interface ActivityContext {

	/** The context of the activity running on this thread. */
	static ActivityContext current() {
		return Providers.of(Provider.class).current();
	}

	ActivityInfo info();

	/** Records progress; the details are handed to the next attempt after a failure. */
	void heartbeat(@Nullable Object details);

	/**
	 * The details of the last heartbeat of this or an earlier attempt, or {@code null}.
	 */
	<T> @Nullable T heartbeatDetails(Class<T> type);

	/** The details of the last heartbeat, for generic types. */
	@Nullable Object heartbeatDetails(Type type);

	/** Whether the workflow canceled this activity or its attempt timed out. */
	boolean isCancelRequested();

	/**
	 * Whether an operator paused this activity while this attempt runs (see
	 * {@code WorkflowHandle.pauseActivity}), as its last recorded heartbeat found: the
	 * attempt may run on, and its outcome counts, but no further attempt starts until the
	 * activity is unpaused. A long-running attempt that heartbeats can stop early by
	 * throwing (its failure waits for the unpause). False for an attempt that never
	 * heartbeats.
	 */
	default boolean isPauseRequested() {
		return false;
	}

	/**
	 * The token that names this attempt to an
	 * {@link dev.durable.workflow.client.ActivityCompletionClient}: opaque, URL-safe,
	 * valid until the attempt's outcome is recorded (completed, failed, timed out or
	 * canceled).
	 */
	String taskToken();

	/**
	 * Declares that the method's return does not complete the attempt: its outcome comes
	 * later, from any node, through
	 * {@link dev.durable.workflow.client.ActivityCompletionClient} with
	 * {@link #taskToken()}. The attempt's timeouts still apply (start-to-close,
	 * heartbeat, schedule-to-close), and heartbeats through the client count. A failure
	 * thrown by the method still fails the attempt.
	 */
	void doNotCompleteOnReturn();

	/**
	 * Where {@link #current()} gets the running attempt: implemented by the engine and
	 * found with {@link java.util.ServiceLoader}; not for applications.
	 */
	interface Provider {

		/**
		 * The context of the activity running on this thread.
		 * @throws IllegalStateException outside an activity execution
		 */
		ActivityContext current();

	}

}
