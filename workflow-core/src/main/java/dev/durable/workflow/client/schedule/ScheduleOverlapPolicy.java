package dev.durable.workflow.client.schedule;

/**
 * What a schedule does when an action is due while a workflow it started earlier is still
 * running (the meaning is Temporal's).
 */
public enum ScheduleOverlapPolicy {

	/** Do not start; the firing is recorded as skipped. The default. */
	SKIP,

	/**
	 * Start once the running workflow closes; at most one firing waits, later ones are
	 * skipped while it does.
	 */
	BUFFER_ONE,

	/**
	 * Start every firing, one after another: each waits for the previous workflow to
	 * close.
	 */
	BUFFER_ALL,

	/**
	 * Request cancellation of the running workflow, and start once it closed. Only the
	 * latest waiting firing is kept.
	 */
	CANCEL_OTHER,

	/** Terminate the running workflow and start at once. */
	TERMINATE_OTHER,

	/** Start at once, whatever runs. */
	ALLOW_ALL

}
