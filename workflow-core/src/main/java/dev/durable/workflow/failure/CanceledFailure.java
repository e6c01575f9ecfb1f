package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

/**
 * Thrown inside workflow code by blocking calls of a canceled cancellation scope (an
 * activity or child of the scope fails with an {@code ActivityFailure} or
 * {@code ChildWorkflowFailure} caused by it).
 * <p>
 * A run whose cancellation was requested closes CANCELED when it ends because of it: its
 * main method (or a signal handler) lets this failure out, or a failure caused by it, or
 * its main method returns or continues as new after the request (its result is dropped).
 * Cleanup runs in a {@code Workflows.newDetachedCancellationScope}; a failure of the
 * cleanup itself (not caused by the cancellation) that leaves the main method fails the
 * run instead, so that it stays visible.
 */
public class CanceledFailure extends WorkflowException {

	public CanceledFailure(String message) {
		super(message);
	}

	/**
	 * @param message the message
	 * @param cause the cause, or {@code null}
	 */
	public CanceledFailure(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
