package dev.durable.workflow;

/** A payload could not be converted, or is larger than the configured limit. */
public class PayloadException extends WorkflowException {

	private final boolean tooLarge;

	public PayloadException(String message, boolean tooLarge, Throwable cause) {
		super(message, cause);
		this.tooLarge = tooLarge;
	}

	/** Whether the payload was rejected for its size. */
	public boolean isTooLarge() {
		return this.tooLarge;
	}

}
