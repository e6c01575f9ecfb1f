package dev.durable.workflow.internal.worker;

import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import dev.durable.workflow.internal.inline.ActivityExecutor;
import dev.durable.workflow.internal.runtime.ActivityAttempts;
import dev.durable.workflow.internal.runtime.LocalActivityInvoker;
import dev.durable.workflow.internal.runtime.ScheduledActivity;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.StoredActivity;

/**
 * What the workflow task executor sets going beyond the runs it holds: their activities,
 * and wake-ups of runs other nodes own. Given to the executor when it is built, so that
 * neither it nor the activity executor is ever half-built.
 */
interface RunEffects {

	/**
	 * Starts (or schedules, when its retry time is ahead) an activity a task scheduled.
	 */
	void startActivity(RunSlot slot, String workflowId, StoredActivity activity);

	/** After a claim: takes over the activities the previous owner had scheduled. */
	void recoverActivities(RunSlot slot, String workflowId, List<ScheduledActivity> pending);

	/**
	 * After a task's commit: forgets the rows it deleted and stops what the run no longer
	 * awaits.
	 */
	void activitiesCommitted(RunSlot slot, WorkflowRunner runner, List<Long> deletedRows);

	/** Cancels a running attempt of the run (the node let the run go). */
	void cancelActivity(RunSlot slot, long seq);

	/**
	 * Asks the other nodes to look at a run this node does not hold (its owner is not
	 * known here).
	 */
	void wakeElsewhere(UUID runId);

	/**
	 * The completion client failed an inline attempt that retries: its next attempt
	 * starts from its row.
	 */
	void retryActivity(RunSlot slot, String workflowId, long seq);

	/**
	 * An operator unpaused, reset or gave new options to an inline activity of the run:
	 * its next attempt starts from its row unless one runs or it is paused.
	 */
	void resumeActivity(RunSlot slot, String workflowId, long seq);

	/**
	 * A commit wrote activities on these task queues: the nodes serving them claim them.
	 */
	void activitiesQueued(java.util.Set<String> taskQueues);

	/** What runs the local activities of the run's workflow tasks on this node. */
	LocalActivityInvoker localActivities(RunSlot slot);

	/**
	 * Counts the attempts of an activity the run's workflow cancels (see
	 * {@link ActivityAttempts}).
	 */
	ActivityAttempts activityAttempts(RunSlot slot);

	/**
	 * A run this node held closed (its flow-control queue, if it has one, has a free
	 * slot).
	 */
	void runClosed(UUID runId);

	/**
	 * The effects of a node: its activity executor, the notification of the other nodes,
	 * the workers of task queues, and what is told of closed runs (the queue dispatcher).
	 */
	static RunEffects of(ActivityExecutor activities, Consumer<UUID> otherNodes,
			Consumer<java.util.Set<String>> queuedWork, Consumer<UUID> closed) {
		return new RunEffects() {

			@Override
			public void startActivity(RunSlot slot, String workflowId, StoredActivity activity) {
				activities.start(slot, workflowId, activity);
			}

			@Override
			public void recoverActivities(RunSlot slot, String workflowId, List<ScheduledActivity> pending) {
				activities.recoverPending(slot, workflowId, pending);
			}

			@Override
			public void activitiesCommitted(RunSlot slot, WorkflowRunner runner, List<Long> deletedRows) {
				activities.committed(slot, runner, deletedRows);
			}

			@Override
			public void cancelActivity(RunSlot slot, long seq) {
				activities.cancel(slot, seq);
			}

			@Override
			public LocalActivityInvoker localActivities(RunSlot slot) {
				return activities.local(slot);
			}

			@Override
			public ActivityAttempts activityAttempts(RunSlot slot) {
				return activities.attempts(slot);
			}

			@Override
			public void wakeElsewhere(UUID runId) {
				otherNodes.accept(runId);
			}

			@Override
			public void retryActivity(RunSlot slot, String workflowId, long seq) {
				activities.retryFromRow(slot, workflowId, seq);
			}

			@Override
			public void resumeActivity(RunSlot slot, String workflowId, long seq) {
				activities.resume(slot, workflowId, seq);
			}

			@Override
			public void activitiesQueued(java.util.Set<String> taskQueues) {
				queuedWork.accept(taskQueues);
			}

			@Override
			public void runClosed(UUID runId) {
				closed.accept(runId);
			}

		};
	}

}
