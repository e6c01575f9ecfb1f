package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.engine.WorkflowEngineListener;
import dev.durable.workflow.internal.commit.TaskCommit;
import dev.durable.workflow.internal.commit.TaskCommitBuilder;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.runtime.TaskResult;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.InboxItem;
import dev.durable.workflow.internal.store.InboxKind;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.store.RunOwnership;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.support.Interceptors;
import dev.durable.workflow.internal.support.RunMdc;

/**
 * One workflow task of a run this node owns: read the run row and its inbox (unless the
 * cached row will do), replay if the run is not cached, apply the new inputs, run the
 * code, and commit everything at once, guarded by a compare-and-set on
 * {@code (owner, epoch, history_seq)}. Runs under the slot's task lock; a failure of the
 * database escapes {@link #run} (the executor retries), a failure of the code is recorded
 * ({@link TaskFailures}).
 */
final class WorkflowTask {

	private static final Logger log = LoggerFactory.getLogger(WorkflowTask.class);

	private final RunSlot slot;

	private final UUID node;

	private final Clock clock;

	private final RunRepository runs;

	private final RunOwnership ownership;

	private final Runners runners;

	private final TaskCommitBuilder commits;

	private final TaskCommitter committer;

	private final TaskFailures failures;

	private final CommitEffects effects;

	private final RunEffects outside;

	private final WorkflowTaskExecutor executor;

	private final Listeners listeners;

	WorkflowTask(RunSlot slot, UUID node, Clock clock, RunRepository runs, RunOwnership ownership, Runners runners,
			TaskCommitBuilder commits, TaskCommitter committer, TaskFailures failures, CommitEffects effects,
			RunEffects outside, WorkflowTaskExecutor executor, Listeners listeners) {
		this.slot = slot;
		this.node = node;
		this.clock = clock;
		this.runs = runs;
		this.ownership = ownership;
		this.runners = runners;
		this.commits = commits;
		this.committer = committer;
		this.failures = failures;
		this.effects = effects;
		this.outside = outside;
		this.executor = executor;
		this.listeners = listeners;
	}

	void run() {
		RunSlot slot = this.slot;
		RunRow cached = slot.cachedRow();
		Optional<RunRepository.Loaded> found = (!slot.needsRead() && cached != null && slot.runner() != null
				&& !slot.isPaused()) ? Optional.of(new RunRepository.Loaded(cached, List.of())) : load();
		if (found.isEmpty() || !found.get().row().isOpen()) {
			this.effects.closedElsewhere(slot, found.isPresent());
			return;
		}
		RunRow row = found.get().row();
		// the task's logs, and its workflow code's, name the run; the thread's own
		// entries come back after
		try (RunMdc mdc = RunMdc.workflow(row.workflowId(), row.runId(), row.workflowType())) {
			run(found.get(), row);
		}
	}

	private void run(RunRepository.Loaded found, RunRow row) {
		RunSlot slot = this.slot;
		if (!this.node.equals(row.owner()) || row.epoch() != slot.epoch()) {
			this.executor.lost(slot);
			return;
		}
		if (row.isPaused()) {
			// an operator paused it: nothing runs until the unpause wakes it; what was
			// handed over stays in the mailbox, what arrived stays in the inbox
			if (!slot.isPaused()) {
				log.info("Run {} is paused ({}); its workflow tasks and activity attempts wait for the unpause",
						row.runId(), (row.pauseReason() != null) ? row.pauseReason() : "no reason given");
			}
			slot.paused();
			return;
		}
		if (slot.isPaused()) {
			slot.unpaused().forEach(Runnable::run);
		}
		if (!this.effects.routesHere(row)) {
			// an auto-upgrading run whose current build changed: a node of that build
			// claims it (the release is fenced by the epoch)
			this.ownership.release(this.node, new UUID[] { row.runId() }, new Long[] { row.epoch() });
			log.info("Run {} runs on another build than this node's ({}) now; this node gives it up", row.runId(),
					this.effects.buildId());
			this.executor.givenUp(slot);
			return;
		}
		Instant deadline = row.deadline();
		if (deadline != null && !this.clock.instant().isBefore(deadline)) {
			this.effects.timeOut(slot, row, deadline);
			return;
		}
		if (slot.runner() != null && slot.runner().historySeq() != row.historySeq()) {
			slot.destroyRunner();
		}
		Interceptors interceptors = this.listeners.interceptors();
		if (!interceptors.isEmpty() && !slot.chainKnown()) {
			slot.knowChain(this.runs.chain(row.runId())); // its headers; read once per
															// slot anyway
		}
		interceptors.workflowTask(new WorkflowEngineListener.Run(row.workflowType(), row.workflowId(), row.runId()),
				RunChain.headers(slot.chain()), () -> {
					this.listeners.taskStarted(row);
					try {
						runTask(row, found.inbox());
					}
					catch (RuntimeException ex) {
						this.listeners.taskFailed(ex);
						throw ex;
					}
					finally {
						// inside the interceptors: what they made current is still
						// current here
						this.listeners.taskEnded();
					}
				});
	}

	private void runTask(RunRow row, List<InboxItem> fromRead) {
		RunSlot slot = this.slot;
		List<InboxItem> inbox = fromRead;
		String terminate = TaskCommitBuilder.terminateReason(inbox);
		if (terminate != null) {
			this.effects.terminate(slot, row, terminate);
			return;
		}
		inbox = takeActivityRetries(row, inbox);
		resumeOperatedActivities(row, inbox);
		List<Event> handedOver = slot.drainMailbox();
		WorkflowRunner runner = slot.runner();
		TaskResult result;
		Instant now = this.clock.instant();
		try {
			if (runner == null) {
				runner = this.runners.rebuild(slot, row);
				slot.useRunner(runner);
				startUnconfirmed(row, runner);
			}
			if (slot.activityRecoveryDue()) {
				// after a claim: restart the activities the previous owner had scheduled;
				// cleared
				// only once done, so that a task the database failed here recovers them
				// again
				this.outside.recoverActivities(slot, row.workflowId(), runner.pendingScheduledActivities());
				slot.activitiesRecovered();
			}
			List<Event> candidates = this.commits.candidates(row, runner, handedOver, inbox, now);
			if (candidates.isEmpty()) {
				if (row.pendingInput()) {
					this.ownership.clearPendingInput(row.runId(), this.node, slot.epoch(), row.inboxSeq());
				}
				this.effects.nothingCommitted(slot, row, runner);
				return;
			}
			result = runner.execute(now, candidates);
			if (result.inputs().isEmpty() && result.commands().isEmpty() && result.updates().isEmpty()
					&& inbox.isEmpty()) {
				// only stale inputs (a duplicate completion): nothing to record
				this.effects.nothingCommitted(slot, row, runner);
				return;
			}
		}
		catch (RuntimeException ex) {
			slot.forgetRunner();
			slot.restore(handedOver);
			this.failures.failed(slot, row, ex);
			return;
		}
		commit(row, runner, this.commits.build(slot, row, runner, result, inbox, now), handedOver);
	}

	private void commit(RunRow row, WorkflowRunner runner, TaskCommit commit, List<Event> handedOver) {
		RunSlot slot = this.slot;
		TaskCommit made = commit;
		TaskCommit.Effects done = write(made, handedOver);
		RunRow now = null;
		if (done == null && !made.fence().resultAwaited()) {
			now = this.runs.find(slot.runId()).orElse(null);
			if (now != null && now.resultAwaited() && now.isOpen() && this.node.equals(now.owner())
					&& now.epoch() == slot.epoch() && now.historySeq() == row.historySeq()
					&& now.inboxSeq() == made.fence().seenInboxSeq()) {
				// a node began to wait for the run since the task read it: the same
				// commit, made with
				// the flag (it then tells that node), needs no new run of the code, which
				// would run
				// the task's local activities again. Its compare-and-set still checks
				// everything else.
				made = made.awaited();
				done = write(made, handedOver);
				now = null;
			}
		}
		if (done != null) {
			this.effects.committed(slot, row, runner, made, done);
			return;
		}
		slot.destroyRunner();
		if (now == null) {
			now = this.runs.find(slot.runId()).orElse(null);
		}
		if (now != null && now.isOpen() && this.node.equals(now.owner()) && now.epoch() == slot.epoch()
				&& now.historySeq() == row.historySeq()) {
			// new input arrived while the task tried to close the run: run the task again
			// with it
			slot.restore(handedOver);
			this.executor.schedule(slot);
		}
		else {
			this.executor.lost(slot);
		}
	}

	/** Writes the commit; when its outcome is unknown, forgets the runner and throws. */
	private TaskCommit.Effects write(TaskCommit commit, List<Event> handedOver) {
		try {
			return this.committer.commit(this.slot.runId(), commit);
		}
		catch (RuntimeException ex) {
			// outcome unknown: replay from what the database really holds; inputs handed
			// over in
			// memory go back to the mailbox (if the commit did land they are stale and
			// dropped),
			// and the activities it scheduled start after the replay if it did land
			this.slot.forgetRunner();
			this.slot.restore(handedOver);
			this.slot.commitOutcomeUnknown(commit.activities().inline());
			throw ex;
		}
	}

	/**
	 * After the replay that follows a commit of unknown outcome: the activities it
	 * scheduled that the stored history awaits were committed, but nothing started them
	 * (their start follows the commit's acknowledgment), and no other node recovers them
	 * while this one owns the run. Those the history does not hold were not committed;
	 * the task that runs now schedules its own again.
	 */
	private void startUnconfirmed(RunRow row, WorkflowRunner runner) {
		for (StoredActivity activity : this.slot.takeUnconfirmedActivities()) {
			if (runner.isActivityPending(activity.seq()) && !this.slot.isRunning(activity.seq())) {
				log.info("Activity {} (seq {}) of run {} was committed although its commit reported a failure;"
						+ " starting it", activity.activityType(), activity.seq(), row.runId());
				this.outside.startActivity(this.slot, row.workflowId(), activity);
			}
		}
	}

	/**
	 * Starts the next attempts of inline activities the completion client failed (their
	 * rows hold them) and deletes those items: they are no input of the workflow.
	 * @return the other inbox items
	 */
	private List<InboxItem> takeActivityRetries(RunRow row, List<InboxItem> inbox) {
		if (inbox.stream().noneMatch((item) -> item.kind() == InboxKind.ACTIVITY_RETRY)) {
			return inbox; // the common case: no list is copied
		}
		List<InboxItem> retries = inbox.stream().filter((item) -> item.kind() == InboxKind.ACTIVITY_RETRY).toList();
		for (InboxItem retry : retries) {
			this.outside.retryActivity(this.slot, row.workflowId(), Long.parseLong(retry.name()));
		}
		this.runs.deleteInbox(row.runId(), retries.stream().map(InboxItem::id).toList());
		return inbox.stream().filter((item) -> item.kind() != InboxKind.ACTIVITY_RETRY).toList();
	}

	/**
	 * Starts again the inline activities an operator unpaused, reset or gave new options
	 * (the events stay in the inbox: the task records them); a task-queue activity's row
	 * is claimable again without the owner.
	 */
	private void resumeOperatedActivities(RunRow row, List<InboxItem> inbox) {
		for (InboxItem item : inbox) {
			if (item.kind() == InboxKind.EVENT) {
				Event event = EventCodec.read(item.payload()).get(0);
				Long seq = switch (event) {
					case Event.ActivityUnpaused unpaused -> unpaused.seq();
					case Event.ActivityReset reset -> reset.seq();
					case Event.ActivityOptionsUpdated updated -> updated.seq();
					default -> null;
				};
				if (seq != null) {
					this.outside.resumeActivity(this.slot, row.workflowId(), seq);
				}
			}
		}
	}

	private Optional<RunRepository.Loaded> load() {
		// cleared before reading: a wake-up during the read sets it again
		this.slot.beginRead();
		return this.runs.load(this.slot.runId());
	}

}
