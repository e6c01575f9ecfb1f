package dev.durable.workflow;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.CanceledFailure;

/**
 * A region of workflow code that can be canceled as a unit. Canceling a scope cancels the
 * timers and activities started inside it and makes its blocking calls throw
 * {@link CanceledFailure}. A detached scope is not canceled with its parent, for cleanup
 * after a cancel request.
 */
public interface CancellationScope {

	/** Runs the scope's body on the calling workflow thread. */
	void run();

	/**
	 * Requests cancellation of this scope and its non-detached children.
	 * @param reason the message of the {@link CanceledFailure}s; {@code null}:
	 * {@code "canceled"}
	 */
	void cancel(@Nullable String reason);

	/** Whether cancellation was requested. */
	boolean isCancelRequested();

}
