package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What this node executes.
 * <p>
 * Bound to {@code durable.workflow.worker.*}, as a part of
 * {@link DurableWorkflowProperties}.
 */
public class DurableWorkflowWorkerProperties {

	/**
	 * Whether this node executes workflows and activities. When false the application is
	 * a client only: it starts and reaches runs that other nodes execute.
	 */
	private boolean enabled = true;

	/**
	 * Whether this worker node runs workflows. False makes it a worker-only node: it runs
	 * only the activities it claims from its activity task queues, and needs no workflow
	 * classes.
	 */
	private boolean workflows = true;

	/**
	 * Activity task queues this node claims activities from (the task queues named by
	 * ActivityMethod.taskQueue or ActivityOptions.taskQueue). It runs the activities of
	 * those queues that are beans here.
	 */
	private List<String> activityTaskQueues = new ArrayList<>();

	/**
	 * Maximum number of activity attempts running at once on this node.
	 */
	private int maxConcurrentActivities = 100;

	/**
	 * Maximum number of runs kept in memory between workflow tasks, so that their next
	 * task needs no replay.
	 */
	private int maxCachedRuns = 1000;

	/**
	 * How often the node looks for runs to claim and timers that are due. A fallback:
	 * runs started or signaled on this node are woken at once.
	 */
	private Duration pollInterval = Duration.ofSeconds(1);

	/**
	 * Task queues this node serves. A run started on another queue is left to the nodes
	 * that serve it.
	 */
	private List<String> taskQueues = new ArrayList<>(List.of("default"));

	/**
	 * How long shutdown waits for running activities before the node releases its runs.
	 */
	private Duration shutdownTimeout = Duration.ofSeconds(30);

	/**
	 * How long one workflow task (one activation of workflow code) may run before it is
	 * failed and retried. A start's own task timeout takes precedence.
	 */
	private Duration taskTimeout = Duration.ofSeconds(10);

	/**
	 * How long a run may stay in memory without a workflow task before it is evicted (it
	 * is replayed on its next task).
	 */
	private Duration cacheIdleTimeout = Duration.ofMinutes(10);

	/**
	 * Exception types (fully qualified class names) that fail the run, instead of failing
	 * the workflow task and retrying it, when workflow code of any type throws them
	 * (subclasses included). Added to each workflow's
	 * own @Workflow(failWorkflowExceptionTypes).
	 */
	private List<Class<? extends Throwable>> failWorkflowExceptionTypes = new ArrayList<>();

	public List<Class<? extends Throwable>> getFailWorkflowExceptionTypes() {
		return this.failWorkflowExceptionTypes;
	}

	public void setFailWorkflowExceptionTypes(List<Class<? extends Throwable>> failWorkflowExceptionTypes) {
		// the binder converts any class name to a Class, whatever the declared bound
		for (Class<?> type : failWorkflowExceptionTypes) {
			if (!Throwable.class.isAssignableFrom(type)) {
				throw new IllegalArgumentException(
						"fail-workflow-exception-types must name exception types; " + type.getName() + " is not one");
			}
		}
		this.failWorkflowExceptionTypes = failWorkflowExceptionTypes;
	}

	public Duration getTaskTimeout() {
		return this.taskTimeout;
	}

	public void setTaskTimeout(Duration taskTimeout) {
		this.taskTimeout = taskTimeout;
	}

	public Duration getCacheIdleTimeout() {
		return this.cacheIdleTimeout;
	}

	public void setCacheIdleTimeout(Duration cacheIdleTimeout) {
		this.cacheIdleTimeout = cacheIdleTimeout;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public boolean isWorkflows() {
		return this.workflows;
	}

	public void setWorkflows(boolean workflows) {
		this.workflows = workflows;
	}

	public List<String> getActivityTaskQueues() {
		return this.activityTaskQueues;
	}

	public void setActivityTaskQueues(List<String> activityTaskQueues) {
		// refused while binding, so that the failure names the property and the value
		if (activityTaskQueues.stream().anyMatch(String::isBlank)) {
			throw new IllegalArgumentException(
					"activity-task-queues: a task queue name must not be blank, got " + activityTaskQueues);
		}
		this.activityTaskQueues = activityTaskQueues;
	}

	public int getMaxConcurrentActivities() {
		return this.maxConcurrentActivities;
	}

	public void setMaxConcurrentActivities(int maxConcurrentActivities) {
		this.maxConcurrentActivities = maxConcurrentActivities;
	}

	public int getMaxCachedRuns() {
		return this.maxCachedRuns;
	}

	public void setMaxCachedRuns(int maxCachedRuns) {
		this.maxCachedRuns = maxCachedRuns;
	}

	public Duration getPollInterval() {
		return this.pollInterval;
	}

	public void setPollInterval(Duration pollInterval) {
		this.pollInterval = pollInterval;
	}

	public List<String> getTaskQueues() {
		return this.taskQueues;
	}

	public void setTaskQueues(List<String> taskQueues) {
		this.taskQueues = taskQueues;
	}

	public Duration getShutdownTimeout() {
		return this.shutdownTimeout;
	}

	public void setShutdownTimeout(Duration shutdownTimeout) {
		this.shutdownTimeout = shutdownTimeout;
	}

}
