package dev.durable.workflow;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.ChildWorkflowFailure;

/**
 * Options of a child workflow.
 *
 * @param workflowId the child's workflow id; when null, a deterministic random UUID
 * @param parentClosePolicy what happens to the child when the parent closes first;
 * TERMINATE when {@code null} is given
 * @param executionTimeout the longest the child's whole execution (continue-as-new
 * included) may take; past it the child closes TIMED_OUT and the parent sees a
 * {@link ChildWorkflowFailure}; unlimited when null
 * @param runTimeout the longest one run of the child may take; unlimited when null
 * @param taskTimeout how long one workflow task of the child may run; the engine's when
 * null
 * @param taskQueue the child's task queue; the parent's when null
 * @param retryPolicy when set, a failed child run is retried as a new run of the same
 * workflow id; when null, it is not retried
 * @param idReusePolicy whether the child may reuse the id of a closed run:
 * ALLOW_DUPLICATE (default, also when null), ALLOW_DUPLICATE_FAILED_ONLY or
 * REJECT_DUPLICATE; a refusal fails the child's start (never the parent's task).
 * TERMINATE_IF_RUNNING is not offered: a parent does not close other runs from its own
 * commit
 */
public record ChildOptions(@Nullable String workflowId, ParentClosePolicy parentClosePolicy,
		@Nullable Duration executionTimeout, @Nullable Duration runTimeout, @Nullable Duration taskTimeout,
		@Nullable String taskQueue, @Nullable RetryPolicy retryPolicy, @Nullable WorkflowIdReusePolicy idReusePolicy) {

	/** Defaults: a deterministic random id, TERMINATE. */
	public static final ChildOptions DEFAULT = new ChildOptions(null, ParentClosePolicy.TERMINATE);

	/** The canonical constructor; a {@code null} parent close policy is TERMINATE. */
	public ChildOptions(@Nullable String workflowId, @Nullable ParentClosePolicy parentClosePolicy,
			@Nullable Duration executionTimeout, @Nullable Duration runTimeout, @Nullable Duration taskTimeout,
			@Nullable String taskQueue, @Nullable RetryPolicy retryPolicy,
			@Nullable WorkflowIdReusePolicy idReusePolicy) {
		if (idReusePolicy == WorkflowIdReusePolicy.TERMINATE_IF_RUNNING) {
			throw new IllegalArgumentException("A child cannot use TERMINATE_IF_RUNNING: terminate the other run"
					+ " first (Workflows.cancelExternal, or the client)");
		}
		for (Duration timeout : new Duration[] { executionTimeout, runTimeout, taskTimeout }) {
			if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
				throw new IllegalArgumentException("Child timeouts must be positive: " + timeout);
			}
		}
		this.workflowId = workflowId;
		this.parentClosePolicy = (parentClosePolicy != null) ? parentClosePolicy : ParentClosePolicy.TERMINATE;
		this.executionTimeout = executionTimeout;
		this.runTimeout = runTimeout;
		this.taskTimeout = taskTimeout;
		this.taskQueue = taskQueue;
		this.retryPolicy = retryPolicy;
		this.idReusePolicy = idReusePolicy;
	}

	/**
	 * Options with an id and a close policy, everything else inherited or unlimited.
	 * @param workflowId the child's workflow id; {@code null}: a deterministic random
	 * UUID
	 * @param parentClosePolicy the close policy; {@code null}: TERMINATE
	 */
	public ChildOptions(@Nullable String workflowId, @Nullable ParentClosePolicy parentClosePolicy) {
		this(workflowId, parentClosePolicy, null, null, null, null, null, null);
	}

	public static ChildOptions withId(String workflowId) {
		return new ChildOptions(workflowId, ParentClosePolicy.TERMINATE);
	}

	/** These options with another close policy ({@code null}: TERMINATE). */
	public ChildOptions withParentClosePolicy(@Nullable ParentClosePolicy policy) {
		return new ChildOptions(this.workflowId, policy, this.executionTimeout, this.runTimeout, this.taskTimeout,
				this.taskQueue, this.retryPolicy, this.idReusePolicy);
	}

	/** These options with another execution timeout ({@code null}: unlimited). */
	public ChildOptions withExecutionTimeout(@Nullable Duration timeout) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, timeout, this.runTimeout, this.taskTimeout,
				this.taskQueue, this.retryPolicy, this.idReusePolicy);
	}

	/** These options with another run timeout ({@code null}: unlimited). */
	public ChildOptions withRunTimeout(@Nullable Duration timeout) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, timeout,
				this.taskTimeout, this.taskQueue, this.retryPolicy, this.idReusePolicy);
	}

	/** These options with another workflow task timeout ({@code null}: the engine's). */
	public ChildOptions withTaskTimeout(@Nullable Duration timeout) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, this.runTimeout,
				timeout, this.taskQueue, this.retryPolicy, this.idReusePolicy);
	}

	/** These options with another task queue ({@code null}: the parent's). */
	public ChildOptions withTaskQueue(@Nullable String queue) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, this.runTimeout,
				this.taskTimeout, queue, this.retryPolicy, this.idReusePolicy);
	}

	/** These options with another retry policy ({@code null}: no retry). */
	public ChildOptions withRetryPolicy(@Nullable RetryPolicy policy) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, this.runTimeout,
				this.taskTimeout, this.taskQueue, policy, this.idReusePolicy);
	}

	/** These options with another id reuse policy ({@code null}: ALLOW_DUPLICATE). */
	public ChildOptions withIdReusePolicy(@Nullable WorkflowIdReusePolicy policy) {
		return new ChildOptions(this.workflowId, this.parentClosePolicy, this.executionTimeout, this.runTimeout,
				this.taskTimeout, this.taskQueue, this.retryPolicy, policy);
	}

	/**
	 * Whether options beyond the id and close policy are set (they are recorded with the
	 * start).
	 */
	public boolean hasRunOptions() {
		return this.executionTimeout != null || this.runTimeout != null || this.taskTimeout != null
				|| this.taskQueue != null || this.retryPolicy != null || this.idReusePolicy != null;
	}

}
