package dev.durable.workflow.client;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * What describe tells about a run.
 *
 * @param workflowId the workflow id
 * @param runId the run id
 * @param workflowType the type name
 * @param taskQueue the task queue
 * @param status the status
 * @param startTime when it was created
 * @param closeTime when it closed, or {@code null}
 * @param workflowTasks committed workflow tasks
 * @param taskFailure why its workflow task is failing (stuck run), or {@code null}
 * @param taskAttempts consecutive failed workflow task attempts
 * @param pendingActivities activities not yet finished
 * @param unfinishedHandlers signal or update handlers still running when the run closed
 * @param memo the run's memo, with the upserts its workflow tasks committed
 * @param searchAttributes the run's search attributes, with the upserts its workflow
 * tasks committed (times as Instant, whole numbers as Long)
 * @param parentWorkflowId the workflow id of the run that started this one as a child, or
 * {@code null}
 * @param parentRunId that parent run, or {@code null}
 * @param pausedAt when an operator paused the open run ({@link WorkflowHandle#pause}), or
 * {@code null} when it is not paused
 * @param pauseReason the reason given with the pause, or {@code null}
 * @param summary the start's summary ({@link StartOptions#summary()}), or {@code null}
 * @param details the start's details ({@link StartOptions#details()}), or {@code null}
 * @param input the run's input decoded for people (JSON values, as the history shows
 * payloads) while no workflow task has recorded it: its first task is failing, or has not
 * run yet (a start delay, a queue); {@code null} once the history's
 * {@code WORKFLOW_STARTED} holds it
 * @param build the build the run belongs to, or {@code null} for an unversioned run (see
 * {@link dev.durable.workflow.VersioningBehavior})
 */
public record WorkflowDescription(String workflowId, UUID runId, String workflowType, String taskQueue,
		WorkflowStatus status, Instant startTime, @Nullable Instant closeTime, int workflowTasks,
		@Nullable String taskFailure, int taskAttempts, List<PendingActivity> pendingActivities, int unfinishedHandlers,
		Map<String, Object> memo, Map<String, Object> searchAttributes, @Nullable String parentWorkflowId,
		@Nullable UUID parentRunId, @Nullable Instant pausedAt, @Nullable String pauseReason, @Nullable String summary,
		@Nullable String details, @Nullable Object input, @Nullable RunBuild build) {

	/** Whether an operator paused the run: it takes no workflow task until unpaused. */
	public boolean paused() {
		return this.pausedAt != null;
	}

	/** A description of a run that no parent started. */
	public WorkflowDescription(String workflowId, UUID runId, String workflowType, String taskQueue,
			WorkflowStatus status, Instant startTime, @Nullable Instant closeTime, int workflowTasks,
			@Nullable String taskFailure, int taskAttempts, List<PendingActivity> pendingActivities,
			int unfinishedHandlers, Map<String, Object> memo, Map<String, Object> searchAttributes) {
		this(workflowId, runId, workflowType, taskQueue, status, startTime, closeTime, workflowTasks, taskFailure,
				taskAttempts, pendingActivities, unfinishedHandlers, memo, searchAttributes, null, null, null, null,
				null, null, null, null);
	}

}
