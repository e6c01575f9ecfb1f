package dev.durable.workflow.engine;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.activity.ActivityInfo;

/**
 * Wraps what an engine does for an application: the calls of its client, the workflow
 * tasks it runs and the activity attempts it runs, with headers that carry context from
 * the caller to the work (a trace context, logging context, a tenant or a user). Register
 * with {@link WorkflowEngine.Builder#interceptor}; in Spring Boot every bean of this type
 * is registered, in {@code @Order}.
 * <p>
 * Headers are strings. Those an interceptor puts in {@link ClientCall#headers()} of a
 * start (including signal-with-start and update-with-start) are stored with the run:
 * every workflow task of the run and every activity attempt it schedules sees them, on
 * any node, after any restart; its child workflows, its continue-as-new runs, its retries
 * and its cron runs inherit them. Headers of other client calls (signal, query, update,
 * cancel, terminate, reset) are seen by the client interceptors only.
 * <p>
 * Interceptors run in the order registered, the first outermost. Each method must call
 * {@code next} exactly once, on the calling thread, and return its result (or throw what
 * it threw): an interceptor may observe and decorate a call, never skip or repeat it.
 * Workflow tasks and activity attempts are intercepted on the node that runs them, never
 * while a run is replayed for a query; workflow code itself runs on threads of its own,
 * which see the {@code workflowId} and {@code runId} logging context but not what a task
 * interceptor sets. Every method has a pass-through default.
 */
public interface WorkflowInterceptor {

	/**
	 * Around a call of the client, on the caller's thread.
	 * @param call what is called; its headers may be added to
	 * @param next the call itself
	 * @return what {@code next} returned
	 */
	default <R> R interceptClient(ClientCall call, Supplier<R> next) {
		return next.get();
	}

	/**
	 * Around one workflow task of a run, on the node's thread that runs it (reading the
	 * run, replaying it if it is not cached, running its code, committing).
	 * @param call the run and its headers
	 * @param next the task itself
	 */
	default void interceptWorkflowTask(WorkflowTaskCall call, Runnable next) {
		next.run();
	}

	/**
	 * Around one activity attempt, on the thread that runs the activity method.
	 * @param call the attempt and the headers of its run
	 * @param next the activity method
	 * @return what {@code next} returned
	 * @throws Exception what {@code next} threw
	 */
	default @Nullable Object interceptActivity(ActivityCall call, Callable<@Nullable Object> next) throws Exception {
		return next.call();
	}

	/** The calls of the client an interceptor sees. */
	enum ClientOperation {

		/** A start: {@code start}, {@code execute}. */
		START,

		/** A start with a signal, atomically. */
		SIGNAL_WITH_START,

		/** A start with an update, atomically. */
		UPDATE_WITH_START,

		/** A signal to an open run. */
		SIGNAL,

		/** A query. */
		QUERY,

		/** An update (also one started with {@code startUpdate}). */
		UPDATE,

		/** A request to cancel. */
		CANCEL,

		/** A termination. */
		TERMINATE,

		/** A reset. */
		RESET,

		/** A pause. */
		PAUSE,

		/** An unpause. */
		UNPAUSE,

		/**
		 * A pause of one pending activity of a run (its id in the run is the call's
		 * name).
		 */
		PAUSE_ACTIVITY,

		/** An unpause of one pending activity (its id is the call's name). */
		UNPAUSE_ACTIVITY,

		/** A reset of one pending activity's attempts (its id is the call's name). */
		RESET_ACTIVITY,

		/** New options of one pending activity (its id is the call's name). */
		UPDATE_ACTIVITY_OPTIONS;

		/** Whether the call starts a run, so its headers are stored with that run. */
		public boolean starts() {
			return this == START || this == SIGNAL_WITH_START || this == UPDATE_WITH_START;
		}

	}

	/**
	 * A call of the client.
	 *
	 * @param operation what is called
	 * @param workflowType the workflow type
	 * @param workflowId the workflow id; {@code null} for a start that lets the engine
	 * choose it
	 * @param name the signal, query or update name, or {@code null}
	 * @param headers the headers of the call, mutable: what interceptors add to a start
	 * is stored with the run
	 */
	record ClientCall(ClientOperation operation, String workflowType, @Nullable String workflowId,
			@Nullable String name, Map<String, String> headers) {
	}

	/**
	 * A workflow task about to run.
	 *
	 * @param run the run
	 * @param headers the headers its start stored (read-only; empty when it had none)
	 */
	record WorkflowTaskCall(WorkflowEngineListener.Run run, Map<String, String> headers) {
	}

	/**
	 * An activity attempt about to run.
	 *
	 * @param activity the attempt
	 * @param headers the headers the start of its run stored (read-only; empty when it
	 * had none)
	 */
	record ActivityCall(ActivityInfo activity, Map<String, String> headers) {
	}

}
