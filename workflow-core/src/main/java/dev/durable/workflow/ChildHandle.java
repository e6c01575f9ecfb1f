package dev.durable.workflow;

import dev.durable.workflow.failure.ChildWorkflowFailure;

/**
 * A child workflow started from workflow code.
 *
 * @param <R> its result type
 */
public interface ChildHandle<R> {

	/** The child's workflow id. */
	String workflowId();

	/**
	 * Completes with the child's run id once it started; fails with ChildWorkflowFailure
	 * if it could not.
	 */
	Promise<String> started();

	/** Completes with the child's result, or fails with {@link ChildWorkflowFailure}. */
	Promise<R> result();

}
