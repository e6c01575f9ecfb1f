package dev.durable.workflow.client;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.ApplicationFailure;

/**
 * Finishes activity attempts that called
 * {@link dev.durable.workflow.activity.ActivityContext#doNotCompleteOnReturn()}, by their
 * task token, from any node that shares the database (or over REST:
 * {@code POST /durable/activities/complete}, {@code /fail}, {@code /heartbeat}).
 *
 * <p>
 * Each call is one transaction. An outcome enters the run's inbox together with the
 * removal of the attempt's record, so a second completion of the same token, or a
 * completion after the attempt timed out or was canceled, changes nothing and answers
 * {@code false}.
 */
public interface ActivityCompletionClient {

	/**
	 * Completes the attempt with a result.
	 * @param taskToken the attempt's
	 * {@link dev.durable.workflow.activity.ActivityContext#taskToken()}
	 * @param result the activity's result, converted like a return value
	 * @return whether this call completed it; {@code false} when the attempt was already
	 * completed, failed, timed out or canceled (nothing changed)
	 * @throws IllegalArgumentException when the token is malformed
	 */
	boolean complete(String taskToken, @Nullable Object result);

	/**
	 * Fails the attempt. The activity's retry policy decides what follows, as for a
	 * failure thrown by its method: another attempt, or the failure handed to the
	 * workflow.
	 * @return whether this call failed it; {@code false} when its outcome was already
	 * recorded
	 */
	boolean fail(String taskToken, ApplicationFailure failure);

	/**
	 * Records a heartbeat of the attempt, with details handed to a later attempt.
	 * @return {@code true} while the attempt is awaited; {@code false} once it is not
	 * (canceled, timed out, completed): the caller should stop its work
	 */
	boolean heartbeat(String taskToken, @Nullable Object details);

}
