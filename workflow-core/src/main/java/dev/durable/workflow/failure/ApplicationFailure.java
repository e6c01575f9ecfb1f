package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.payload.EncodedValue;

/**
 * A failure thrown on purpose by user code. It crosses activity, child and update
 * boundaries intact, as the cause of the boundary's failure. Any other exception thrown
 * by an activity is converted to an {@code ApplicationFailure} whose type is the
 * exception's class name.
 */
public class ApplicationFailure extends WorkflowException {

	private final String type;

	private final boolean nonRetryable;

	private final @Nullable EncodedValue details;

	private final @Nullable String originalStackTrace;

	ApplicationFailure(@Nullable String message, @Nullable String type, boolean nonRetryable,
			@Nullable EncodedValue details, @Nullable Throwable cause, @Nullable String originalStackTrace) {
		super(message, cause);
		this.type = (type != null) ? type : "ApplicationFailure";
		this.nonRetryable = nonRetryable;
		this.details = details;
		this.originalStackTrace = originalStackTrace;
	}

	/**
	 * A retryable failure of the given type ({@code null}: {@code "ApplicationFailure"}).
	 */
	public static ApplicationFailure newFailure(String message, @Nullable String type) {
		return new ApplicationFailure(message, type, false, null, null, null);
	}

	/**
	 * A retryable failure of the given type ({@code null}: {@code "ApplicationFailure"})
	 * with details (serialized when it crosses a boundary; {@code null}: none).
	 */
	public static ApplicationFailure newFailure(String message, @Nullable String type, @Nullable Object details) {
		return new ApplicationFailure(message, type, false, EncodedValue.of(details), null, null);
	}

	/**
	 * A failure that is never retried, of the given type ({@code null}:
	 * {@code "ApplicationFailure"}).
	 */
	public static ApplicationFailure newNonRetryableFailure(String message, @Nullable String type) {
		return new ApplicationFailure(message, type, true, null, null, null);
	}

	/** A failure that is never retried, with details ({@code null}: none). */
	public static ApplicationFailure newNonRetryableFailure(String message, @Nullable String type,
			@Nullable Object details) {
		return new ApplicationFailure(message, type, true, EncodedValue.of(details), null, null);
	}

	/**
	 * Rebuilds a failure from its recorded form; used by the engine.
	 * @param message the message, may be {@code null} (an exception converted without
	 * one)
	 * @param type the failure type; {@code null}: {@code "ApplicationFailure"}
	 * @param nonRetryable whether retries are forbidden
	 * @param details the details, may be {@code null}
	 * @param cause the cause, may be {@code null}
	 * @param originalStackTrace the stack trace where it was first thrown, may be
	 * {@code null}
	 * @return the failure
	 */
	public static ApplicationFailure restore(@Nullable String message, @Nullable String type, boolean nonRetryable,
			@Nullable EncodedValue details, @Nullable Throwable cause, @Nullable String originalStackTrace) {
		return new ApplicationFailure(message, type, nonRetryable, details, cause, originalStackTrace);
	}

	/**
	 * The failure type: chosen by the thrower, or the class name of a converted
	 * exception.
	 */
	public String getType() {
		return this.type;
	}

	public boolean isNonRetryable() {
		return this.nonRetryable;
	}

	/** The details converted to the given class, or {@code null} when there are none. */
	public <T> @Nullable T getDetails(Class<T> type) {
		return (this.details != null) ? this.details.get(type) : null;
	}

	/** The raw details, or {@code null}. */
	public @Nullable EncodedValue getEncodedDetails() {
		return this.details;
	}

	/** The stack trace recorded where the failure was first thrown, or {@code null}. */
	public @Nullable String getOriginalStackTrace() {
		return this.originalStackTrace;
	}

	@Override
	public String toString() {
		return "ApplicationFailure[type=" + this.type + ", nonRetryable=" + this.nonRetryable + "]: " + getMessage();
	}

}
