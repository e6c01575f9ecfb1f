package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

/**
 * An activity failed for good (attempts exhausted, non-retryable, timed out or canceled);
 * see the cause.
 */
public class ActivityFailure extends WorkflowException {

	private final String activityType;

	private final long activityId;

	private final int attempt;

	/**
	 * @param activityType the activity type name
	 * @param activityId the activity's sequence number within its run
	 * @param attempt the number of attempts made
	 * @param cause the last attempt's failure, or {@code null}
	 */
	public ActivityFailure(String activityType, long activityId, int attempt, @Nullable Throwable cause) {
		super("Activity " + activityType + " (id " + activityId + ") failed after " + attempt + " attempt(s)"
				+ ((cause != null) ? ": " + cause.getMessage() : ""), cause);
		this.activityType = activityType;
		this.activityId = activityId;
		this.attempt = attempt;
	}

	public String getActivityType() {
		return this.activityType;
	}

	/** The activity's sequence number within its run. */
	public long getActivityId() {
		return this.activityId;
	}

	/**
	 * The number of attempts made. For an activity its workflow canceled, the attempt
	 * running then counts (0 when none had started).
	 */
	public int getAttempt() {
		return this.attempt;
	}

}
