package dev.durable.workflow.client;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One thing an open run waits for now, as {@link WorkflowHandle#waitingOn()} tells it: a
 * durable timer, an activity, a child run, a signal received by name, a condition in its
 * code, a place in a flow-control queue, the retry of its failing workflow task, or an
 * operator's unpause.
 *
 * @param kind what it waits for
 * @param name the timer's, activity's or signal's name, the child's workflow id, the
 * queue's name, or the workflow code's method for a condition
 * @param until when the timer fires, the activity's next attempt is due or the failing
 * task is retried, or {@code null}
 * @param attempt the activity's next attempt (1 when it has not failed yet), or
 * {@code null}
 * @param location where the workflow code waits
 * ({@code OrderWorkflow.run(OrderWorkflow.java:42)}), for the waits of its code;
 * {@code null} for the others
 * @param detail more in words: the failure the activity or task retries after, the reason
 * of a pause (of the run, or of a paused activity); or {@code null}
 */
public record RunWait(Kind kind, String name, @Nullable Instant until, @Nullable Integer attempt,
		@Nullable String location, @Nullable String detail) {

	/** What a run waits for. */
	public enum Kind {

		/** A durable timer (a sleep, or the timeout of an await). */
		TIMER,

		/** An activity's outcome (an attempt running, or its next attempt). */
		ACTIVITY,

		/**
		 * An activity an operator paused, or its retry policy paused after its attempts
		 * were exhausted ({@link WorkflowHandle#pauseActivity}): it waits for the unpause
		 * or a reset. The detail is the pause's reason.
		 */
		ACTIVITY_PAUSED,

		/** A child run's start or outcome. */
		CHILD,

		/** A signal the code receives by name ({@code Workflows.receive}). */
		SIGNAL,

		/**
		 * A condition in the workflow code ({@code Workflows.await}, a promise, a lock):
		 * it holds when an input changes the state it reads (a signal, an update).
		 */
		CONDITION,

		/** Admission to the flow-control queue it was started into. */
		QUEUE,

		/** The retry of its failing workflow task. */
		TASK_RETRY,

		/** An operator's unpause ({@link WorkflowHandle#unpause()}). */
		UNPAUSE,

		/**
		 * A live node of the build the run is pinned to (none is live), or an operator's
		 * move to another build ({@link WorkflowHandle#moveToBuild}).
		 */
		BUILD,

		/**
		 * An event on a topic ({@code Workflows.awaitEvent}): the name is the topic, the
		 * detail the fields the event's payload must have.
		 */
		EVENT

	}

}
