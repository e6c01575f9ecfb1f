package dev.durable.workflow.client;

/** Where a pending activity stands, as {@link PendingActivity#state()} tells it. */
public enum PendingActivityState {

	/**
	 * Waiting for its next attempt to start: on a task queue, until a worker of the queue
	 * claims it (none may serve the queue); without one, until the retry time or until a
	 * node owns the run again.
	 */
	SCHEDULED,

	/**
	 * An attempt is under way: claimed by a worker of its task queue, or, without a task
	 * queue, due on the node that owns the run.
	 */
	STARTED,

	/**
	 * The attempt's method returned after
	 * {@code ActivityContext.doNotCompleteOnReturn()}: its outcome comes through
	 * {@link ActivityCompletionClient}, while its timeouts still apply.
	 */
	AWAITING_COMPLETION

}
