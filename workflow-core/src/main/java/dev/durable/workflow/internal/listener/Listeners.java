package dev.durable.workflow.internal.listener;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.engine.WorkflowEngineListener;
import dev.durable.workflow.engine.WorkflowEngineListener.Execution;
import dev.durable.workflow.internal.commit.TaskCommit;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.support.Interceptors;

/**
 * The engine's side of {@link WorkflowEngineListener}: calls every registered listener
 * and contains what they throw (logged, never passed on), so a listener cannot break a
 * run. The workflow task in progress on a thread is remembered between its start and its
 * end. Carries the node's {@link Interceptors} too, which wrap the same work (outside the
 * listeners, so that a listener's observation sees what an interceptor made current).
 */
public final class Listeners {

	private static final Logger log = LoggerFactory.getLogger(Listeners.class);

	/** No listeners. */
	public static final Listeners NONE = new Listeners(List.of());

	private final List<WorkflowEngineListener> listeners;

	private final Interceptors interceptors;

	private final ThreadLocal<Task> task = new ThreadLocal<>();

	public Listeners(List<WorkflowEngineListener> listeners) {
		this(listeners, Interceptors.NONE);
	}

	public Listeners(List<WorkflowEngineListener> listeners, Interceptors interceptors) {
		this.listeners = List.copyOf(listeners);
		this.interceptors = interceptors;
	}

	/** The interceptors around the node's workflow tasks and activity attempts. */
	public Interceptors interceptors() {
		return this.interceptors;
	}

	private static WorkflowEngineListener.Run run(RunRow row) {
		return new WorkflowEngineListener.Run(row.workflowType(), row.workflowId(), row.runId());
	}

	/**
	 * A workflow task of the run committed: the run started when it was its first, closed
	 * when it closes it.
	 */
	public void committed(RunRow row, TaskCommit commit) {
		if (row.historySeq() == 0) {
			each((listener) -> listener.runStarted(run(row)));
		}
		if (commit.closes()) {
			runClosed(row, commit.close().status());
		}
	}

	/** A run that starts with history (a reset run) began. */
	public void runStarted(RunRow row) {
		each((listener) -> listener.runStarted(run(row)));
	}

	/** The run closed with the status. */
	public void runClosed(RunRow row, RunStatus status) {
		each((listener) -> listener.runClosed(run(row), status.published()));
	}

	/**
	 * Reports the close when the run was open (the runs to wake are not {@code null});
	 * returns them.
	 */
	public List<UUID> closed(RunRow row, RunStatus status, List<UUID> woken) {
		if (woken != null) {
			runClosed(row, status);
		}
		return woken;
	}

	/** A workflow task of the run begins on this thread; {@link #taskEnded} ends it. */
	public void taskStarted(RunRow row) {
		if (!this.listeners.isEmpty()) {
			this.task.set(new Task(start((listener) -> listener.workflowTaskStarted(run(row)))));
		}
	}

	/** The workflow task in progress on this thread failed. */
	public void taskFailed(Throwable failure) {
		Task current = this.task.get();
		if (current != null) {
			current.failure = failure;
		}
	}

	/** Ends the workflow task in progress on this thread, if any. */
	public void taskEnded() {
		Task current = this.task.get();
		if (current != null) {
			this.task.remove();
			end(current.executions, current.failure);
		}
	}

	/**
	 * An activity attempt begins on this thread. @return its end, to call on this thread
	 */
	Execution activityStarted(ActivityInfo activity, Duration scheduleToStart) {
		if (this.listeners.isEmpty()) {
			return Execution.NONE;
		}
		Execution[] executions = start((listener) -> listener.activityStarted(activity, scheduleToStart));
		return (failure) -> end(executions, failure);
	}

	/**
	 * Runs an activity attempt on this thread: through the interceptors, and inside them
	 * observed by the listeners.
	 * @param headers the headers of the attempt's run, read only when an interceptor
	 * needs them
	 */
	public @Nullable Object activity(ActivityInfo activity, Duration scheduleToStart,
			Supplier<Map<String, String>> headers, Callable<@Nullable Object> body) throws Exception {
		return this.interceptors.activity(activity, this.interceptors.isEmpty() ? Map.of() : headers.get(), () -> {
			Execution observed = activityStarted(activity, scheduleToStart);
			Throwable failure = null;
			try {
				return body.call();
			}
			catch (Throwable ex) {
				failure = ex;
				throw ex;
			}
			finally {
				observed.end(failure);
			}
		});
	}

	public void activityFailed(ActivityInfo activity, String failureType, boolean retrying) {
		each((listener) -> listener.activityFailed(activity, failureType, retrying));
	}

	private Execution[] start(Function<WorkflowEngineListener, Execution> begin) {
		Execution[] executions = new Execution[this.listeners.size()];
		for (int i = 0; i < executions.length; i++) {
			try {
				executions[i] = begin.apply(this.listeners.get(i));
			}
			catch (RuntimeException | LinkageError ex) {
				failed(this.listeners.get(i), ex);
			}
		}
		return executions;
	}

	private void end(Execution[] executions, Throwable failure) {
		for (int i = 0; i < executions.length; i++) {
			if (executions[i] != null) {
				try {
					executions[i].end(failure);
				}
				catch (RuntimeException | LinkageError ex) {
					failed(this.listeners.get(i), ex);
				}
			}
		}
	}

	private void each(java.util.function.Consumer<WorkflowEngineListener> call) {
		for (WorkflowEngineListener listener : this.listeners) {
			try {
				call.accept(listener);
			}
			catch (RuntimeException | LinkageError ex) {
				failed(listener, ex);
			}
		}
	}

	private static void failed(WorkflowEngineListener listener, Throwable ex) {
		log.warn("Workflow engine listener {} failed; ignored", listener, ex);
	}

	/** The listeners' ends of the workflow task in progress on a thread. */
	private static final class Task {

		private final Execution[] executions;

		private Throwable failure;

		Task(Execution[] executions) {
			this.executions = executions;
		}

	}

}
