package dev.durable.workflow.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * An update sent to a workflow, reachable by its id.
 *
 * @param <T> the result type
 */
public interface UpdateHandle<T> {

	String workflowId();

	String updateId();

	/** The stage reached so far. */
	UpdateStage stage();

	/**
	 * Waits for the outcome.
	 * @throws WorkflowUpdateRejectedException when the validator rejected it
	 * @throws WorkflowUpdateFailedException when its handler failed (or the run closed
	 * first)
	 */
	T result();

	/**
	 * Waits at most the given time.
	 * @param timeout how long to wait; {@code null}: as long as it takes, like
	 * {@link #result()}
	 * @throws WorkflowHandle.WorkflowTimeoutException when the update has not completed
	 * in time
	 */
	T result(@Nullable Duration timeout);

}
