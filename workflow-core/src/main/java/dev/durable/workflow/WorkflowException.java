package dev.durable.workflow;

/** Base of every exception the engine and the client throw. Unchecked. */
public class WorkflowException extends RuntimeException {

	public WorkflowException(String message) {
		super(message);
	}

	public WorkflowException(String message, Throwable cause) {
		super(message, cause);
	}

}
