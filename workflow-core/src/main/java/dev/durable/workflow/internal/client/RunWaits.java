package dev.durable.workflow.internal.client;

import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.QueryFailedException;
import dev.durable.workflow.client.RunBuild;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.internal.store.RunOwnership;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.worker.LocalNode;

/**
 * What an open run waits for now: what its rows say (a pause, a place in a queue, the
 * retry of a failing task, its activities with their attempts) and what its code's state
 * says (timers, children, signals received by name, conditions with their line), read by
 * this node as a query is.
 */
public final class RunWaits {

	private final RunDescriber describer;

	private final LocalNode node;

	private final RunRepository runs;

	public RunWaits(RunDescriber describer, LocalNode node, RunRepository runs) {
		this.describer = describer;
		this.node = node;
		this.runs = runs;
	}

	List<RunWait> of(RunRow row) {
		if (!row.isOpen()) {
			return List.of();
		}
		List<RunWait> waits = new ArrayList<>();
		if (row.isPaused()) {
			waits.add(new RunWait(RunWait.Kind.UNPAUSE, "unpause", null, null, null, row.pauseReason()));
		}
		RunBuild build = this.describer.build(row);
		if (build != null && build.waitingForBuild()) {
			waits.add(new RunWait(RunWait.Kind.BUILD, build.buildId(), null, null, null,
					(build.moveRefused() != null) ? "no node of build '" + build.buildId()
							+ "' is live; the last move was" + " refused: " + build.moveRefused()
							: "no node of build '" + build.buildId() + "' is live"));
		}
		if (row.taskAttempt() == RunOwnership.WAITING_IN_QUEUE) {
			waits.add(new RunWait(RunWait.Kind.QUEUE, this.runs.queueOf(row.runId()).orElse("queue"), null, null, null,
					null));
			return waits; // no task ran yet: the code waits for nothing
		}
		if (row.taskAttempt() > 0) {
			waits.add(new RunWait(RunWait.Kind.TASK_RETRY, "workflow task", row.nextWakeAt(), row.taskAttempt() + 1,
					null, firstLine(row.taskFailure())));
		}
		for (PendingActivity activity : this.describer.pendingActivities(row)) {
			waits.add(activity.isPaused()
					? new RunWait(RunWait.Kind.ACTIVITY_PAUSED, activity.activityType(), null, activity.attempt(), null,
							(activity.pauseReason() != null) ? activity.pauseReason() : "activity paused")
					: new RunWait(RunWait.Kind.ACTIVITY, activity.activityType(), activity.nextAttemptTime(),
							activity.attempt(), null, firstLine(activity.lastFailure())));
		}
		if (row.historySeq() > 0) {
			try {
				waits.addAll(this.node.waitingOn(row));
			}
			catch (QueryFailedException ex) {
				// the code cannot replay the run here (its task is failing, or its type
				// is
				// not registered on this node): the rows' part stands
			}
		}
		return waits;
	}

	/**
	 * What the run's code last set as its current details, or {@code null} (also when
	 * this node cannot replay the run, or it has not run a task yet).
	 */
	String currentDetails(RunRow row) {
		if (row.historySeq() == 0) {
			return null;
		}
		try {
			return this.node.currentDetails(row);
		}
		catch (QueryFailedException ex) {
			return null;
		}
	}

	private static String firstLine(String text) {
		if (text == null) {
			return null;
		}
		int end = text.indexOf('\n');
		return (end < 0) ? text : text.substring(0, end);
	}

}
