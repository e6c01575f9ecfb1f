package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.commit.TaskCommit;
import dev.durable.workflow.internal.commit.TaskCommitBuilder;
import dev.durable.workflow.internal.execution.WakeScheduler;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.versioning.BuildRouter;
import dev.durable.workflow.internal.store.RunStatus;
import dev.durable.workflow.internal.store.StoredActivity;

/**
 * What follows a workflow task once its outcome is stored: the run is cached (or
 * forgotten when it closed), the activities it scheduled start, its next timer is armed,
 * the runs it told are woken, waiters get results, and the run that continues it is
 * adopted. Also the closes decided without the run's code (terminated, timed out, history
 * too large), which end the same way.
 */
final class CommitEffects {

	private static final Logger log = LoggerFactory.getLogger(CommitEffects.class);

	private final UUID node;

	private final Clock clock;

	private final RunRepository runs;

	private final TransactionTemplate tx;

	private final WakeScheduler wake;

	private final ResultWaiters waiters;

	private final Listeners listeners;

	private final EngineSettings.HistoryLimits historyLimits;

	private final RunEffects outside;

	private final WorkflowTaskExecutor executor;

	private final BuildRouter routing;

	CommitEffects(UUID node, Clock clock, RunRepository runs, TransactionTemplate tx, WakeScheduler wake,
			ResultWaiters waiters, Listeners listeners, EngineSettings.HistoryLimits historyLimits, RunEffects outside,
			WorkflowTaskExecutor executor, BuildRouter routing) {
		this.routing = routing;
		this.node = node;
		this.clock = clock;
		this.runs = runs;
		this.tx = tx;
		this.wake = wake;
		this.waiters = waiters;
		this.listeners = listeners;
		this.historyLimits = historyLimits;
		this.outside = outside;
		this.executor = executor;
	}

	/** Whether the run's next task runs on this node's build. */
	boolean routesHere(RunRow row) {
		return this.routing.routesHere(row);
	}

	/** This node's build. */
	String buildId() {
		return this.routing.buildId();
	}

	/**
	 * After a task's commit: cache the run, start what it scheduled, wake whom it told,
	 * forget it if it closed.
	 */
	void committed(RunSlot slot, RunRow row, WorkflowRunner runner, TaskCommit commit, TaskCommit.Effects effects) {
		slot.useRunner(runner);
		slot.retrySucceeded();
		slot.cacheRow(commit.closes() ? null : row.afterCommit(row.historySeq() + (commit.recordsHistory() ? 1 : 0),
				commit.fence().seenInboxSeq(), commit.outputs().unfinishedHandlers(), this.routing.committed(row)));
		if (row.taskAttempt() > 0) {
			log.info("Workflow task of run {} succeeded after {} failed attempt(s)", row.runId(), row.taskAttempt());
		}
		this.listeners.committed(row, commit);
		if (!commit.outputs().events().isEmpty() || (commit.closes() && runner.context().outputs().any())) {
			this.waiters.outputsCommitted(row.runId());
		}
		startAndArm(slot, row, runner, commit.activities().inline());
		if (!commit.activities().queued().isEmpty()) {
			java.util.Set<String> queues = new java.util.LinkedHashSet<>();
			for (StoredActivity queued : commit.activities().queued()) {
				// the row the commit wrote: a commit that ends the activity deletes it
				slot.activityStored(queued.seq());
				queues.add(queued.options().taskQueue());
			}
			this.outside.activitiesQueued(queues);
		}
		this.outside.activitiesCommitted(slot, runner, commit.activities().removed());
		commit.outputs()
			.updates()
			.forEach((update) -> this.waiters.closed(ResultWaiters.updateKey(row.workflowId(), update.updateId())));
		if (commit.fence().resultAwaited() && (commit.closes() || !commit.outputs().updates().isEmpty())) {
			// a node that does not hold the run waits for it (never the case on the hot
			// path)
			this.waiters.awaitedCommitted(row.runId());
		}
		for (NewRun child : effects.startedChildren()) {
			if (this.node.equals(child.owner())) {
				this.executor.adopt(child.runId(), 1, false);
			}
			else {
				this.outside.wakeElsewhere(child.runId());
			}
		}
		effects.wake().forEach((other) -> {
			if (!other.equals(row.runId()) || !commit.closes()) {
				this.executor.wakeAnywhere(other);
			}
		});
		if (commit.recordsHistory()) {
			runner.addHistoryBytes(commit.history().events().length);
		}
		if (commit.closes()) {
			log.debug("Run {} closed: {}", row.runId(), commit.close().status());
			this.executor.drop(slot);
			this.waiters.closed(slot.runId(), commit.outcome());
			this.outside.runClosed(slot.runId());
			NewRun next = commit.close().continuedAs();
			if (next != null && next.wakeAt() == null) {
				this.executor.adopt(next.runId(), 1, false);
			}
			else if (next != null) {
				this.wake.schedule(next.wakeAt(), () -> this.executor.adopt(next.runId(), 1, false));
			}
		}
		else if (runner.historyExceeded()) {
			terminateOversized(slot, row);
		}
	}

	/** A task that had nothing to record: the run waits on, its next timer armed. */
	void nothingCommitted(RunSlot slot, RunRow row, WorkflowRunner runner) {
		startAndArm(slot, row, runner, List.of());
	}

	/** The run's deadline passed: it is closed as timed out, without its code. */
	void timeOut(RunSlot slot, RunRow row, Instant deadline) {
		FailureInfo failure = FailureInfo.workflowTimeout(deadline.equals(row.executionDeadline()), deadline);
		log.info("Run {} timed out: {}", row.runId(), failure.message());
		closedOutside(slot, this.listeners.closed(row, RunStatus.TIMED_OUT,
				this.tx.execute((status) -> this.runs.timeOut(row.runId(), failure, now()))));
	}

	/**
	 * A TERMINATE item came (a parent closed with policy TERMINATE): the run is
	 * terminated.
	 */
	void terminate(RunSlot slot, RunRow row, String reason) {
		closedOutside(slot, this.listeners.closed(row, RunStatus.TERMINATED,
				this.tx.execute((status) -> this.runs.terminateAndWake(row.runId(), reason, now()))));
	}

	/**
	 * The run is gone or closed by another hand (a client's terminate, retention): forget
	 * it.
	 * @param closed whether it is stored closed (its waiters re-read the outcome), else
	 * it is gone
	 */
	void closedElsewhere(RunSlot slot, boolean closed) {
		this.executor.drop(slot);
		if (closed) {
			this.waiters.closed(slot.runId());
			this.outside.runClosed(slot.runId());
		}
	}

	/**
	 * The run was closed without its code (terminated, timed out): forget it, wake who
	 * was told.
	 */
	private void closedOutside(RunSlot slot, List<UUID> woken) {
		this.executor.drop(slot);
		this.waiters.closed(slot.runId());
		this.outside.runClosed(slot.runId());
		if (woken != null) {
			woken.forEach(this.executor::wakeAnywhere);
		}
	}

	private void terminateOversized(RunSlot slot, RunRow row) {
		String reason = "history of run " + row.runId() + " exceeds the limit of " + this.historyLimits.maxEvents()
				+ " events or " + this.historyLimits.maxBytes()
				+ " bytes; use Workflows.continueAsNew when info().continueAsNewSuggested() says so";
		log.warn("Terminating run {}: {}", row.runId(), reason);
		this.listeners.closed(row, RunStatus.TERMINATED,
				this.tx.execute((status) -> this.runs.terminateAndWake(row.runId(), reason, this.clock.instant())));
		this.executor.drop(slot);
		this.waiters.closed(slot.runId());
		this.outside.runClosed(slot.runId());
	}

	private void startAndArm(RunSlot slot, RunRow row, WorkflowRunner runner, List<StoredActivity> started) {
		String workflowId = row.workflowId();
		started.forEach((activity) -> this.outside.startActivity(slot, workflowId, activity));
		Instant next = TaskCommitBuilder.earliest(runner.nextTimer(), row.deadline());
		if (next != null) {
			this.wake.schedule(next, () -> this.executor.scheduleKeepingCache(slot));
		}
	}

	private Instant now() {
		return this.clock.instant();
	}

}
