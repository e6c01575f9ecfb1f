package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

/** A timeout fired; {@link #getTimeoutType()} says which. */
public class TimeoutFailure extends WorkflowException {

	private final TimeoutType timeoutType;

	/**
	 * @param message the message
	 * @param timeoutType which timeout fired
	 * @param cause the cause, or {@code null}
	 */
	public TimeoutFailure(String message, TimeoutType timeoutType, @Nullable Throwable cause) {
		super(message, cause);
		this.timeoutType = timeoutType;
	}

	public TimeoutType getTimeoutType() {
		return this.timeoutType;
	}

}
