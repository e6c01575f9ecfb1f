package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

/** Base of every exception the engine and the client throw. Unchecked. */
public class WorkflowException extends RuntimeException {

	/**
	 * @param message the message, or {@code null}
	 */
	public WorkflowException(@Nullable String message) {
		super(message);
	}

	/**
	 * @param message the message, or {@code null}
	 * @param cause the cause, or {@code null}
	 */
	public WorkflowException(@Nullable String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
