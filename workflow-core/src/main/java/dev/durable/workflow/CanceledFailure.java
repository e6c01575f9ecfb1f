package dev.durable.workflow;

import org.jspecify.annotations.Nullable;

/**
 * Thrown inside workflow code by blocking calls of a canceled cancellation scope; a run whose
 * main method ends with it after a cancel request is CANCELED.
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
