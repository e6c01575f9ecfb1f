package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

/** A payload could not be converted, or is larger than the configured limit. */
public class PayloadException extends WorkflowException {

	private final boolean tooLarge;

	/**
	 * @param message the message
	 * @param tooLarge whether the payload was rejected for its size
	 * @param cause the converter's failure, or {@code null}
	 */
	public PayloadException(String message, boolean tooLarge, @Nullable Throwable cause) {
		super(message, cause);
		this.tooLarge = tooLarge;
	}

	/** Whether the payload was rejected for its size. */
	public boolean isTooLarge() {
		return this.tooLarge;
	}

}
