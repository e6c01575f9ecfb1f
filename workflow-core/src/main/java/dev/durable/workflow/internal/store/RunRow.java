package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.util.UUID;

/**
 * The hot row of a run, as read.
 *
 * @param runId run id
 * @param namespace namespace
 * @param workflowId workflow id
 * @param workflowType type name
 * @param taskQueue task queue
 * @param status status
 * @param owner owning node, or {@code null}
 * @param epoch fencing epoch
 * @param historySeq number of committed workflow tasks
 * @param inboxSeq counter of inbox sends
 * @param pendingInput whether the inbox holds input not yet seen by a task
 * @param nextWakeAt earliest timer or retry
 * @param taskAttempt consecutive failed workflow task attempts
 * @param taskFailure the last workflow task failure
 * @param createdAt creation time
 * @param closedAt close time
 * @param unfinishedHandlers handlers still running when the run closed
 * @param parentRunId the parent run of a child, else {@code null}
 * @param parentSeq the parent's command that started this child
 * @param runDeadline when the run times out, or {@code null}
 * @param executionDeadline when the execution times out, or {@code null}
 * @param attempt the attempt number (workflow retries)
 * @param nextRunId the run that followed this one, or {@code null}
 * @param resultAwaited whether a node that does not hold the run waits for its outcome
 * @param pausedAt when an operator paused the run, or {@code null} when it is not paused
 * @param pauseReason the reason given with the pause, or {@code null} (its close then
 * notifies the nodes)
 * @param build the build the run belongs to
 */
public record RunRow(UUID runId, String namespace, String workflowId, String workflowType, String taskQueue,
		RunStatus status, UUID owner, long epoch, int historySeq, long inboxSeq, boolean pendingInput,
		Instant nextWakeAt, int taskAttempt, String taskFailure, Instant createdAt, Instant closedAt,
		int unfinishedHandlers, UUID parentRunId, Long parentSeq, Instant runDeadline, Instant executionDeadline,
		int attempt, UUID nextRunId, boolean resultAwaited, Instant pausedAt, String pauseReason,
		BuildAssignment build) {

	public RunRow {
		build = (build != null) ? build : BuildAssignment.UNVERSIONED;
	}

	/** Whether an operator paused the run: it takes no workflow task until unpaused. */
	public boolean isPaused() {
		return this.pausedAt != null;
	}

	/** The earlier of the run and execution deadlines, or {@code null}. */
	public Instant deadline() {
		if (this.runDeadline == null) {
			return this.executionDeadline;
		}
		if (this.executionDeadline == null) {
			return this.runDeadline;
		}
		return this.runDeadline.isBefore(this.executionDeadline) ? this.runDeadline : this.executionDeadline;
	}

	public boolean isOpen() {
		return this.status == RunStatus.RUNNING;
	}

	/**
	 * The row of a run this node just inserted as its owner (see
	 * {@link RunRepository#insert}).
	 */
	public static RunRow started(NewRun run) {
		return new RunRow(run.runId(), run.namespace(), run.workflowId(), run.workflowType(), run.taskQueue(),
				RunStatus.RUNNING, run.owner(), (run.owner() != null) ? 1L : 0L, 0, 0, false,
				(run.wakeAt() != null) ? run.wakeAt() : run.createdAt(), 0, null, run.createdAt(), null, 0, null, null,
				run.runDeadline(), run.executionDeadline(), run.attempt(), null, false, null, null, run.build());
	}

	/**
	 * The row as a successful task commit that kept the run open left it.
	 * @param committedBuild the build the commit recorded
	 */
	public RunRow afterCommit(int newHistorySeq, long seenInboxSeq, int handlers, BuildAssignment committedBuild) {
		return new RunRow(this.runId, this.namespace, this.workflowId, this.workflowType, this.taskQueue, this.status,
				this.owner, this.epoch, newHistorySeq, seenInboxSeq, false, this.nextWakeAt, 0, null, this.createdAt,
				null, handlers, this.parentRunId, this.parentSeq, this.runDeadline, this.executionDeadline,
				this.attempt, null, this.resultAwaited, null, null, committedBuild);
	}

}
