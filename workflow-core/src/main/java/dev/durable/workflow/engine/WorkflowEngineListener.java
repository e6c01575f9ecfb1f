package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.client.WorkflowStatus;

/**
 * Receives what a node of the engine does, for metrics, tracing and logs: runs started
 * and closed, workflow tasks and activity attempts. Register with
 * {@link WorkflowEngine.Builder#listener}. Every method has a no-op default.
 * <p>
 * Events are reported once, by the node that does the work, and never while a run is
 * replayed. A listener is called on engine threads, so it must be quick and must not
 * block; an exception it throws is logged and otherwise ignored: a listener cannot break
 * a run.
 */
public interface WorkflowEngineListener {

	/**
	 * A run's first workflow task committed on this node: the run started executing (a
	 * start through the client, a child, a continue-as-new, a retry or a cron run).
	 * @param run the run
	 */
	default void runStarted(Run run) {
	}

	/**
	 * A run closed on this node: its code returned, failed, was canceled or continued as
	 * new, or it was terminated or timed out.
	 * @param run the run
	 * @param status how it closed
	 */
	default void runClosed(Run run, WorkflowStatus status) {
	}

	/**
	 * A workflow task of the run begins on the current thread (replaying the run's
	 * history if it is not cached, applying new input, running the code and committing).
	 * @param run the run
	 * @return called when the task ends, on the same thread
	 */
	default Execution workflowTaskStarted(Run run) {
		return Execution.NONE;
	}

	/**
	 * An activity attempt begins on the current thread.
	 * @param activity the attempt
	 * @param scheduleToStart how long the attempt waited to start after it was due
	 * (scheduled, or its retry time came), by the engine clock
	 * @return called when the activity method returns or throws, on the same thread
	 */
	default Execution activityStarted(ActivityInfo activity, Duration scheduleToStart) {
		return Execution.NONE;
	}

	/**
	 * An activity attempt failed (it threw, timed out, or its node was lost).
	 * @param activity the attempt
	 * @param failureType the failure's type (the exception's or application failure's
	 * type, or the timeout type)
	 * @param retrying whether another attempt is scheduled; false when the failure goes
	 * to the workflow
	 */
	default void activityFailed(ActivityInfo activity, String failureType, boolean retrying) {
	}

	/**
	 * The end of a workflow task or an activity attempt.
	 */
	@FunctionalInterface
	interface Execution {

		/** Ignores the end. */
		Execution NONE = (failure) -> {
		};

		/**
		 * Called once, on the thread that began the execution.
		 * @param failure why the workflow task failed or what the activity method threw,
		 * or {@code null} when it succeeded
		 */
		void end(@Nullable Throwable failure);

	}

	/**
	 * The run an event is about.
	 *
	 * @param workflowType the workflow type
	 * @param workflowId the workflow id
	 * @param runId the run id
	 */
	record Run(String workflowType, String workflowId, UUID runId) {
	}

}
