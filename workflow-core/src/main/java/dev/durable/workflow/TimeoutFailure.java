package dev.durable.workflow;

/** A timeout fired; {@link #getTimeoutType()} says which. */
public class TimeoutFailure extends WorkflowException {

	private final TimeoutType timeoutType;

	public TimeoutFailure(String message, TimeoutType timeoutType, Throwable cause) {
		super(message, cause);
		this.timeoutType = timeoutType;
	}

	public TimeoutType getTimeoutType() {
		return this.timeoutType;
	}

}
