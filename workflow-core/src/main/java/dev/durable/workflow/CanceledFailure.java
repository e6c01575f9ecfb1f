package dev.durable.workflow;

/**
 * Thrown inside workflow code by blocking calls of a canceled cancellation scope; a run whose
 * main method ends with it after a cancel request is CANCELED.
 */
public class CanceledFailure extends WorkflowException {

	public CanceledFailure(String message) {
		super(message);
	}

	public CanceledFailure(String message, Throwable cause) {
		super(message, cause);
	}

}
