package dev.durable.workflow;

import java.time.Duration;

/**
 * Options of a child workflow.
 *
 * @param workflowId the child's workflow id; when null, a deterministic random UUID
 * @param parentClosePolicy what happens to the child when the parent closes first
 * @param executionTimeout the longest the child's whole execution (continue-as-new included) may
 * take; past it the child closes TIMED_OUT and the parent sees a {@link ChildWorkflowFailure}
 * @param runTimeout the longest one run of the child may take
 * @param taskTimeout how long one workflow task of the child may run; the engine's when null
 * @param taskQueue the child's task queue; the parent's when null
 * @param retryPolicy when set, a failed child run is retried as a new run of the same workflow id
 * @param idReusePolicy whether the child may reuse the id of a closed run: ALLOW_DUPLICATE
 * (default), ALLOW_DUPLICATE_FAILED_ONLY or REJECT_DUPLICATE; a refusal fails the child's start
 * (never the parent's task). TERMINATE_IF_RUNNING is not offered: a parent does not close other
 * runs from its own commit
 */
public record ChildOptions(String workflowId, ParentClosePolicy parentClosePolicy, Duration executionTimeout,
		Duration runTimeout, Duration taskTimeout, String taskQueue, RetryPolicy retryPolicy,
		dev.durable.workflow.client.WorkflowIdReusePolicy idReusePolicy) {

	/** Defaults: a deterministic random id, TERMINATE. */
	public static final ChildOptions DEFAULT = new ChildOptions(null, ParentClosePolicy.TERMINATE);

	public ChildOptions {
		parentClosePolicy = (parentClosePolicy != null) ? parentClosePolicy : ParentClosePolicy.TERMINATE;
		if (idReusePolicy == dev.durable.workflow.client.WorkflowIdReusePolicy.TERMINATE_IF_RUNNING) {
			throw new IllegalArgumentException("A child cannot use TERMINATE_IF_RUNNING: terminate the other run"
					+ " first (Workflows.cancelExternal, or the client)");
		}
		for (Duration timeout : new Duration[] { executionTimeout, runTimeout, taskTimeout }) {
			if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
				throw new IllegalArgumentException("Child timeouts must be positive: " + timeout);
			}
		}
	}

	/** Options with an id and a close policy, everything else inherited or unlimited. */
	public ChildOptions(String workflowId, ParentClosePolicy parentClosePolicy) {
		this(workflowId, parentClosePolicy, null, null, null, null, null, null);
	}

	public static ChildOptions withId(String workflowId) {
		return new ChildOptions(workflowId, ParentClosePolicy.TERMINATE);
	}

	public ChildOptions withParentClosePolicy(ParentClosePolicy policy) {
		return new ChildOptions(this.workflowId, policy, this.executionTimeout, this.runTimeout, this.taskTimeout,
				this.taskQueue, this.retryPolicy, this.idReusePolicy);
	}

	public ChildOptions withExecutionTimeout(Duration timeout) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, timeout, this.runTimeout, this.taskTimeout,
				this.taskQueue, this.retryPolicy, this.idReusePolicy);
	}

	public ChildOptions withRunTimeout(Duration timeout) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, timeout,
				this.taskTimeout, this.taskQueue, this.retryPolicy, this.idReusePolicy);
	}

	public ChildOptions withTaskTimeout(Duration timeout) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, this.runTimeout,
				timeout, this.taskQueue, this.retryPolicy, this.idReusePolicy);
	}

	public ChildOptions withTaskQueue(String queue) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, this.runTimeout,
				this.taskTimeout, queue, this.retryPolicy, this.idReusePolicy);
	}

	public ChildOptions withRetryPolicy(RetryPolicy policy) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, this.runTimeout,
				this.taskTimeout, this.taskQueue, policy, this.idReusePolicy);
	}

	public ChildOptions withIdReusePolicy(dev.durable.workflow.client.WorkflowIdReusePolicy policy) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, this.runTimeout,
				this.taskTimeout, this.taskQueue, this.retryPolicy, policy);
	}

	/** Whether options beyond the id and close policy are set (they are recorded with the start). */
	public boolean hasRunOptions() {
		return this.executionTimeout != null || this.runTimeout != null || this.taskTimeout != null
				|| this.taskQueue != null || this.retryPolicy != null || this.idReusePolicy != null;
	}

}
