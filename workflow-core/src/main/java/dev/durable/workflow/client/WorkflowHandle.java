package dev.durable.workflow.client;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * A run, reached by workflow id (following the latest run) or pinned to a run id.
 *
 * @param <R> the result type
 */
public interface WorkflowHandle<R> {

	String workflowId();

	/** The run id: the pinned run, or the latest run at the time of the call. */
	UUID runId();

	/**
	 * Waits for the run to close and returns its result.
	 * @throws WorkflowFailedException when it failed, was canceled, terminated or timed out
	 */
	R result();

	/**
	 * Waits at most the given time.
	 * @throws WorkflowTimeoutException when the run is still open after the timeout
	 */
	R result(Duration timeout);

	/** The result converted to the given type. */
	<T> T result(Class<T> type);

	/** Completes with the result, or exceptionally with {@link WorkflowFailedException}. */
	CompletableFuture<R> resultAsync();

	/** Requests cancellation: the workflow sees {@code CanceledFailure} and may clean up. */
	void cancel(String reason);

	/** Closes the run at once; no workflow code runs. */
	void terminate(String reason);

	WorkflowDescription describe();

	List<HistoryEvent> history();

	/** Thrown by {@link #result(Duration)} when the run is still open. */
	class WorkflowTimeoutException extends dev.durable.workflow.WorkflowException {

		public WorkflowTimeoutException(String message, TimeoutException cause) {
			super(message, cause);
		}

	}

}
