package dev.durable.workflow.client.schedule;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.WorkflowMethodReference;

/**
 * What a schedule does when it fires: start a workflow. The workflow id of each start is
 * {@code {workflowIdPrefix}-{nominal time}}, for instance
 * {@code nightly-report-2026-01-01T02:00:00Z}, so each firing is its own workflow and a
 * firing's workflow is easy to find.
 *
 * @param workflowType the workflow type name
 * @param input the input of each run (encoded when the schedule is created or updated),
 * or {@code null} for none
 * @param workflowIdPrefix the prefix of the workflow ids; {@code null}: the schedule id
 * @param taskQueue the task queue of the runs; {@code null}: the default queue
 * @param executionTimeout the execution timeout of each run, or {@code null}
 * @param runTimeout the run timeout of each run, or {@code null}
 * @param retryPolicy the workflow retry policy of each run, or {@code null}
 */
public record ScheduleAction(String workflowType, @Nullable Object input, @Nullable String workflowIdPrefix,
		@Nullable String taskQueue, @Nullable Duration executionTimeout, @Nullable Duration runTimeout,
		@Nullable RetryPolicy retryPolicy) {

	public ScheduleAction {
		if (workflowType == null || workflowType.isBlank()) {
			throw new IllegalArgumentException("A schedule action needs a workflow type");
		}
		for (Duration timeout : new Duration[] { executionTimeout, runTimeout }) {
			if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
				throw new IllegalArgumentException("Timeouts must be positive: " + timeout);
			}
		}
	}

	/** Starts the workflow type with the input ({@code null}: none). */
	public static ScheduleAction startWorkflow(String workflowType, @Nullable Object input) {
		return new ScheduleAction(workflowType, input, null, null, null, null, null);
	}

	/** Starts the workflow whose run method is given, with the input. */
	public static <W, A, R> ScheduleAction startWorkflow(WorkflowMethodReference.Func1<W, A, R> workflow, A input) {
		Objects.requireNonNull(workflow, "workflow");
		return startWorkflow(WorkflowMethodReference.typeName(workflow), input);
	}

	/** Starts the workflow whose run method is given and takes no input. */
	public static <W, R> ScheduleAction startWorkflow(WorkflowMethodReference.Func0<W, R> workflow) {
		Objects.requireNonNull(workflow, "workflow");
		return startWorkflow(WorkflowMethodReference.typeName(workflow), null);
	}

	/** This action with another input ({@code null}: none). */
	public ScheduleAction withInput(@Nullable Object value) {
		return new ScheduleAction(this.workflowType, value, this.workflowIdPrefix, this.taskQueue,
				this.executionTimeout, this.runTimeout, this.retryPolicy);
	}

	/** This action with another workflow id prefix ({@code null}: the schedule id). */
	public ScheduleAction withWorkflowIdPrefix(@Nullable String value) {
		return new ScheduleAction(this.workflowType, this.input, value, this.taskQueue, this.executionTimeout,
				this.runTimeout, this.retryPolicy);
	}

	/** This action with another task queue ({@code null}: the default queue). */
	public ScheduleAction withTaskQueue(@Nullable String value) {
		return new ScheduleAction(this.workflowType, this.input, this.workflowIdPrefix, value, this.executionTimeout,
				this.runTimeout, this.retryPolicy);
	}

	/** This action with another execution timeout ({@code null}: none). */
	public ScheduleAction withExecutionTimeout(@Nullable Duration value) {
		return new ScheduleAction(this.workflowType, this.input, this.workflowIdPrefix, this.taskQueue, value,
				this.runTimeout, this.retryPolicy);
	}

	/** This action with another run timeout ({@code null}: none). */
	public ScheduleAction withRunTimeout(@Nullable Duration value) {
		return new ScheduleAction(this.workflowType, this.input, this.workflowIdPrefix, this.taskQueue,
				this.executionTimeout, value, this.retryPolicy);
	}

	/** This action with another workflow retry policy ({@code null}: none). */
	public ScheduleAction withRetryPolicy(@Nullable RetryPolicy value) {
		return new ScheduleAction(this.workflowType, this.input, this.workflowIdPrefix, this.taskQueue,
				this.executionTimeout, this.runTimeout, value);
	}

}
