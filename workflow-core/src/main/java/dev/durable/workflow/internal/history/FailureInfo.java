package dev.durable.workflow.internal.history;

import java.time.Instant;

import dev.durable.workflow.failure.TimeoutType;

/**
 * The recorded form of a failure, as it crosses boundaries and is stored.
 *
 * @param kind APPLICATION, ACTIVITY, TIMEOUT, CANCELED, TERMINATED
 * @param type the application failure type (or exception class name)
 * @param message the message
 * @param nonRetryable whether retries are forbidden
 * @param stackTrace where it was first thrown
 * @param details encoded details, may be {@code null}
 * @param cause the recorded cause, may be {@code null}
 * @param timeoutType for TIMEOUT
 * @param activityType for ACTIVITY
 * @param activityId for ACTIVITY
 * @param attempt for ACTIVITY
 */
public record FailureInfo(String kind, String type, String message, boolean nonRetryable, String stackTrace,
		byte[] details, FailureInfo cause, TimeoutType timeoutType, String activityType, Long activityId,
		Integer attempt) {

	public static FailureInfo application(String type, String message, boolean nonRetryable, String stackTrace,
			byte[] details, FailureInfo cause) {
		return new FailureInfo("APPLICATION", type, message, nonRetryable, stackTrace, details, cause, null, null, null,
				null);
	}

	/**
	 * The failure of a run closed by its run timeout or (the whole chain's) execution
	 * timeout.
	 */
	public static FailureInfo workflowTimeout(boolean execution, Instant deadline) {
		return timeout(execution ? TimeoutType.SCHEDULE_TO_CLOSE : TimeoutType.START_TO_CLOSE,
				(execution ? "workflow execution timeout" : "workflow run timeout") + " passed at " + deadline, null);
	}

	public static FailureInfo timeout(TimeoutType timeoutType, String message, FailureInfo cause) {
		return new FailureInfo("TIMEOUT", null, message, false, null, null, cause, timeoutType, null, null, null);
	}

	public static FailureInfo canceled(String message) {
		return new FailureInfo("CANCELED", null, message, false, null, null, null, null, null, null, null);
	}

	public static FailureInfo terminated(String message) {
		return new FailureInfo("TERMINATED", null, message, false, null, null, null, null, null, null, null);
	}

	public static FailureInfo activity(String activityType, long activityId, int attempt, FailureInfo cause) {
		return new FailureInfo("ACTIVITY", null, null, false, null, null, cause, null, activityType, activityId,
				attempt);
	}

	public static FailureInfo child(String workflowType, String workflowId, FailureInfo cause) {
		return new FailureInfo("CHILD", workflowType, workflowId, false, null, null, cause, null, null, null, null);
	}

	/** A one-line description for logs and describe. */
	public String summary() {
		String self = switch (this.kind) {
			case "APPLICATION" -> this.type + ": " + this.message;
			case "TIMEOUT" -> "timeout " + this.timeoutType + ((this.message != null) ? ": " + this.message : "");
			case "ACTIVITY" -> "activity " + this.activityType + " failed after " + this.attempt + " attempt(s)";
			case "CHILD" -> "child workflow " + this.type + " (" + this.message + ") failed";
			default -> this.kind.toLowerCase() + ((this.message != null) ? ": " + this.message : "");
		};
		return (this.cause != null) ? self + " <- " + this.cause.summary() : self;
	}

}
