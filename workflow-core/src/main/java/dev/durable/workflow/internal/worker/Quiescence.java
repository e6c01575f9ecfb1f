package dev.durable.workflow.internal.worker;

import dev.durable.workflow.internal.execution.WakeScheduler;
import dev.durable.workflow.internal.inline.ActivityExecutor;

/**
 * Whether a node is doing nothing in memory: no workflow task queued or running, no
 * activity attempt launched or running, no clock-driven action due or being handed over.
 * With the database check of {@link dev.durable.workflow.internal.store.WakeTimes} it
 * tells the test kit that every run waits for time.
 */
final class Quiescence {

	private Quiescence() {
	}

	static boolean idle(WorkflowTaskExecutor executor, ActivityExecutor activities, WakeScheduler wake,
			int maxActivities) {
		if (executor == null || activities == null || wake == null) {
			return true;
		}
		if (wake.isBusy() || activities.available() < maxActivities) {
			return false;
		}
		for (RunSlot slot : executor.slots().values()) {
			if (!slot.isIdle()) {
				return false;
			}
		}
		if (executor.anyLeavingTask()) {
			return false;
		}
		// an attempt may have ended between the checks: its slot is scheduled before it
		// lets go
		return activities.available() >= maxActivities && !wake.isBusy();
	}

	/**
	 * Whether inline activity code runs: the executor has a permit out (a permit is held
	 * until the method returns).
	 */
	static boolean activitiesRunning(ActivityExecutor activities, int maxActivities) {
		return activities != null && activities.available() < maxActivities;
	}

}
