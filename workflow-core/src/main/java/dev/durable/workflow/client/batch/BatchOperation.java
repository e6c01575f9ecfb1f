package dev.durable.workflow.client.batch;

import dev.durable.workflow.client.ResetPoint;

/** What a batch does to each run its filter matches (see {@link BatchRequest}). */
public enum BatchOperation {

	/** Requests cancellation of each open run; a closed run is skipped. */
	CANCEL,

	/** Terminates each open run; a closed run is skipped. */
	TERMINATE,

	/**
	 * Sends one signal to each open run, with an idempotency key made of the batch id and
	 * the workflow id, so a page retried after a crash never delivers twice; a closed run
	 * is skipped.
	 */
	SIGNAL,

	/**
	 * Resets each run (open or closed) to a {@link ResetPoint}; a run that is no longer
	 * the latest of its workflow id (reset already, or continued as new) is skipped.
	 */
	RESET,

	/**
	 * Pauses each open run (see {@code WorkflowHandle.pause}) with the batch's reason; a
	 * closed run is skipped, a paused one left as it is.
	 */
	PAUSE,

	/** Unpauses each paused open run; a closed run is skipped. */
	UNPAUSE

}
