package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.internal.config.EngineConfig;
import dev.durable.workflow.internal.commit.TaskCommit;
import dev.durable.workflow.internal.commit.TaskCommitBuilder;
import dev.durable.workflow.internal.commit.TaskCommitRepository;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.runtime.TaskResult;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.InboxItem;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.StoredActivity;
import dev.durable.workflow.internal.store.TaskRepository;
import dev.durable.workflow.internal.support.Payloads;

/**
 * Executes workflow tasks of the runs this node owns: read the run row and its inbox, replay if
 * the run is not cached, apply the new inputs, run the code, and commit everything in one
 * transaction guarded by a compare-and-set on {@code (owner, epoch, history_seq)}.
 */
final class WorkflowTaskExecutor {

	private static final Logger log = LoggerFactory.getLogger(WorkflowTaskExecutor.class);

	private final EngineConfig config;

	private final UUID node;

	private final Clock clock;

	private final WorkflowRegistry workflows;

	private final Function<Class<?>, Object> factory;

	private final Payloads payloads;

	private final RunRepository runs;

	private final TaskRepository tasks;

	private final TaskCommitRepository taskCommits;

	private final TransactionTemplate tx;

	private final WakeScheduler wake;

	private final ResultWaiters waiters;

	private final EngineHooks hooks;

	private final ExecutorService pool;

	private final Listeners listeners;

	private final Map<UUID, RunSlot> slots = new ConcurrentHashMap<>();

	private final TaskCommitBuilder commits;

	private final RunEviction eviction;

	private final TaskFailures taskFailures;

	private ActivityExecutor activityExecutor;

	private java.util.function.BiConsumer<UUID, UUID> notifier = (run, owner) -> {
	};

	void setNotifier(java.util.function.BiConsumer<UUID, UUID> notifier) {
		this.notifier = notifier;
	}

	WorkflowTaskExecutor(EngineConfig config, UUID node, Clock clock, WorkflowRegistry workflows,
			Function<Class<?>, Object> factory, Payloads payloads, RunRepository runs, TaskRepository tasks,
			TaskCommitRepository taskCommits,
			TransactionTemplate tx, WakeScheduler wake, ResultWaiters waiters,
			EngineHooks hooks, ExecutorService pool, Listeners listeners) {
		this.config = config;
		this.node = node;
		this.clock = clock;
		this.workflows = workflows;
		this.factory = factory;
		this.payloads = payloads;
		this.runs = runs;
		this.tasks = tasks;
		this.taskCommits = taskCommits;
		this.tx = tx;
		this.wake = wake;
		this.waiters = waiters;
		this.hooks = hooks;
		this.pool = pool;
		this.listeners = listeners;
		this.commits = new TaskCommitBuilder(node, workflows, runs, config.taskQueues());
		this.eviction = new RunEviction(this.slots, runs, node, config, clock, this::drop);
		this.taskFailures = new TaskFailures(runs, node, clock, wake, listeners, this::schedule, this::lost);
	}

	void setActivityExecutor(ActivityExecutor activityExecutor) {
		this.activityExecutor = activityExecutor;
	}

	TaskCommitBuilder commits() {
		return this.commits;
	}

	Map<UUID, RunSlot> slots() {
		return this.slots;
	}

	/** Whether a live slot of the run is cached here. */
	boolean holds(UUID runId) {
		RunSlot slot = this.slots.get(runId);
		return slot != null && !slot.dead;
	}

	/** Takes a run this node just started or claimed and schedules its task. */
	void adopt(UUID runId, long epoch, boolean recoverActivities) {
		RunSlot slot = this.slots.compute(runId, (id, existing) -> {
			if (existing != null && existing.epoch == epoch && !existing.dead) {
				return existing;
			}
			if (existing != null) {
				discard(existing);
			}
			return new RunSlot(id, epoch, recoverActivities);
		});
		schedule(slot);
	}

	/** Wakes a run this node owns, or asks the other nodes to look (the owner is not known here). */
	void wakeAnywhere(UUID runId) {
		RunSlot slot = this.slots.get(runId);
		if (slot != null) {
			schedule(slot);
		}
		else {
			this.notifier.accept(runId, null);
		}
	}

	private void timeOut(RunSlot slot, RunRow row, Instant deadline) {
		FailureInfo failure = FailureInfo.workflowTimeout(deadline.equals(row.executionDeadline()), deadline);
		log.info("Run {} timed out: {}", row.runId(), failure.message());
		closedOutside(slot, this.listeners.closed(row, "TIMED_OUT",
				this.tx.execute((status) -> this.runs.timeOut(row.runId(), failure, now()))));
	}

	/** The run was closed without its code (terminated, timed out): forget it, wake who was told. */
	private void closedOutside(RunSlot slot, List<UUID> woken) {
		drop(slot);
		this.waiters.closed(slot.runId);
		if (woken != null) {
			woken.forEach(this::wakeAnywhere);
		}
	}

	private Instant now() {
		return this.clock.instant();
	}

	/** Wakes an owned run (input arrived, timer due). */
	void wake(UUID runId) {
		RunSlot slot = this.slots.get(runId);
		if (slot != null) {
			schedule(slot);
		}
	}

	void deliver(RunSlot slot, Event event) {
		if (slot.dead) {
			return;
		}
		slot.deliver(event);
		scheduleKeepingCache(slot);
	}

	/** Whether a failing task still waits for its backoff (the wake-up at that time runs it). */
	private boolean waitingForRetry(RunSlot slot) {
		Instant notBefore = slot.retryNotBefore;
		return notBefore != null && this.clock.instant().isBefore(notBefore);
	}

	/** Schedules a task that reads the run row and inbox first: something outside may have changed. */
	void schedule(RunSlot slot) {
		slot.needsRead = true;
		scheduleKeepingCache(slot);
	}

	private void scheduleKeepingCache(RunSlot slot) {
		if (waitingForRetry(slot)) {
			return;
		}
		if (!slot.dead && slot.markScheduled()) {
			submit(slot);
		}
	}

	void submit(RunSlot slot) {
		if (this.pool.isShutdown()) {
			return; // the engine is shutting down: the run is released and picked up again elsewhere
		}
		try {
			Continuations.runNextOr(this.pool, () -> Continuations.accepting(() -> runSlot(slot)));
		}
		catch (java.util.concurrent.RejectedExecutionException ex) {
			// the engine is shutting down: the run is released and picked up again elsewhere
		}
	}

	private void runSlot(RunSlot slot) {
		slot.beginRun();
		slot.taskLock.lock();
		try {
			if (!slot.dead && !waitingForRetry(slot)) {
				runTask(slot);
			}
		}
		catch (RuntimeException ex) {
			// the database is unreachable or the outcome is unknown: forget the cached state
			// a database problem is logged briefly; anything else is a bug worth its stack trace
			log.warn("Workflow task of run {} did not complete: {}", slot.runId,
					Errors.rootMessage(ex),
					(ex instanceof org.springframework.dao.DataAccessException) ? null : ex);
			this.listeners.taskFailed(ex);
			slot.destroyRunner();
			// an infrastructure retry: by wall-clock time, whatever the engine clock does
			CompletableFuture.delayedExecutor(this.config.pollInterval().toMillis(), TimeUnit.MILLISECONDS, this.pool)
				.execute(() -> schedule(slot));
		}
		finally {
			this.listeners.taskEnded();
			slot.unlockTask();
			MDC.clear();
			slot.lastUsed = this.clock.instant();
			if (slot.endRun()) {
				submit(slot);
			}
		}
	}

	private void runTask(RunSlot slot) {
		RunRow cached = slot.cachedRow;
		Optional<RunRepository.Loaded> found = (!slot.needsRead && cached != null && slot.runner != null)
				? Optional.of(new RunRepository.Loaded(cached, List.of())) : load(slot);
		if (found.isEmpty() || !found.get().row().isOpen()) {
			drop(slot);
			if (found.isPresent()) {
				this.waiters.closed(slot.runId);
			}
			return;
		}
		RunRow row = found.get().row();
		MDC.put("workflowId", row.workflowId());
		MDC.put("runId", row.runId().toString());
		if (!this.node.equals(row.owner()) || row.epoch() != slot.epoch) {
			lost(slot);
			return;
		}
		Instant deadline = row.deadline();
		if (deadline != null && !this.clock.instant().isBefore(deadline)) {
			timeOut(slot, row, deadline);
			return;
		}
		if (slot.runner != null && slot.runner.historySeq() != row.historySeq()) {
			slot.destroyRunner();
		}
		this.listeners.taskStarted(row);
		List<InboxItem> inbox = found.get().inbox();
		String terminate = TaskCommitBuilder.terminateReason(inbox);
		if (terminate != null) {
			closedOutside(slot, this.listeners.closed(row, "TERMINATED",
					this.tx.execute((status) -> this.runs.terminateAndWake(row.runId(), terminate, now()))));
			return;
		}
		List<Event> handedOver = slot.drainMailbox();
		WorkflowRunner runner = slot.runner;
		TaskResult result;
		Instant now = this.clock.instant();
		try {
			if (runner == null) {
				runner = rebuild(slot, row);
				slot.runner = runner;
			}
			if (slot.recoverActivities) {
				// after a claim: restart the activities the previous owner had scheduled
				slot.recoverActivities = false;
				this.activityExecutor.recoverPending(slot, row.workflowId(), runner.pendingScheduledActivities());
			}
			List<Event> candidates = this.commits.candidates(row, runner, handedOver, inbox, now);
			if (candidates.isEmpty()) {
				if (row.pendingInput()) {
					this.runs.clearPendingInput(row.runId(), this.node, slot.epoch, row.inboxSeq());
				}
				slot.runner = runner;
				afterCommit(slot, row, runner, List.of());
				return;
			}
			result = runner.execute(now, candidates);
			if (result.inputs().isEmpty() && result.commands().isEmpty() && result.updates().isEmpty()
					&& inbox.isEmpty()) {
				// only stale inputs (a duplicate completion): nothing to record
				afterCommit(slot, row, runner, List.of());
				return;
			}
		}
		catch (RuntimeException ex) {
			if (runner != null) {
				runner.destroy();
			}
			slot.runner = null;
			slot.restore(handedOver);
			this.taskFailures.failed(slot, row, ex);
			return;
		}
		TaskCommit commit = this.commits.build(slot, row, runner, result, inbox, now);
		TaskCommit.Effects effects;
		try {
			effects = commit(slot.runId, commit);
		}
		catch (RuntimeException ex) {
			// outcome unknown: replay from what the database really holds; inputs handed over in
			// memory go back to the mailbox (if the commit did land they are stale and dropped)
			runner.destroy();
			slot.runner = null;
			slot.restore(handedOver);
			throw ex;
		}
		if (effects == null) {
			runner.destroy();
			slot.runner = null;
			slot.cachedRow = null;
			RunRow now2 = this.runs.find(slot.runId).orElse(null);
			if (now2 != null && now2.isOpen() && this.node.equals(now2.owner()) && now2.epoch() == slot.epoch
					&& now2.historySeq() == row.historySeq()) {
				// new input arrived while the task tried to close the run: run the task again with it
				slot.restore(handedOver);
				schedule(slot);
			}
			else {
				lost(slot);
			}
			return;
		}
		committed(slot, row, runner, commit, effects);
	}

	/** After a task's commit: cache the run, start what it scheduled, wake whom it told, forget it if it closed. */
	void committed(RunSlot slot, RunRow row, WorkflowRunner runner, TaskCommit commit,
			TaskCommit.Effects effects) {
		slot.runner = runner;
		slot.retryNotBefore = null;
		slot.cachedRow = commit.closes() ? null
				: row.afterCommit(row.historySeq() + (commit.recordsHistory() ? 1 : 0), commit.seenInboxSeq(),
						commit.unfinishedHandlers());
		if (row.taskAttempt() > 0) {
			log.info("Workflow task of run {} succeeded after {} failed attempt(s)", row.runId(), row.taskAttempt());
		}
		this.listeners.committed(row, commit);
		afterCommit(slot, row, runner, commit.newActivities());
		this.activityExecutor.committed(slot, runner, commit.removedActivities());
		commit.updates()
			.forEach((update) -> this.waiters.closed(ResultWaiters.updateKey(row.workflowId(), update.updateId())));
		for (NewRun child : effects.startedChildren()) {
			if (this.node.equals(child.owner())) {
				adopt(child.runId(), 1, false);
			}
			else {
				this.notifier.accept(child.runId(), null);
			}
		}
		effects.wake().forEach((other) -> {
			if (!other.equals(row.runId()) || !commit.closes()) {
				wakeAnywhere(other);
			}
		});
		if (commit.recordsHistory()) {
			runner.addHistoryBytes(commit.events().length);
		}
		if (commit.closes()) {
			log.debug("Run {} closed: {}", row.runId(), commit.closeStatus());
			drop(slot);
			this.waiters.closed(slot.runId, commit.outcome());
			NewRun next = commit.continuedAs();
			if (next != null && next.wakeAt() == null) {
				adopt(next.runId(), 1, false);
			}
			else if (next != null) {
				this.wake.schedule(next.wakeAt(), () -> adopt(next.runId(), 1, false));
			}
		}
		else if (runner.historyExceeded()) {
			String reason = "history of run " + row.runId() + " exceeds the limit of "
					+ this.config.historyLimits().maxEvents() + " events or " + this.config.historyLimits().maxBytes()
					+ " bytes; use Workflows.continueAsNew when info().continueAsNewSuggested() says so";
			log.warn("Terminating run {}: {}", row.runId(), reason);
			this.listeners.closed(row, "TERMINATED",
					this.tx.execute((status) -> this.runs.terminateAndWake(row.runId(), reason, this.clock.instant())));
			drop(slot);
			this.waiters.closed(slot.runId);
		}
	}

	/**
	 * Commits a task: one statement without a transaction block when it fits, else one
	 * transaction. {@code null} when the compare-and-set failed and nothing was written.
	 */
	private TaskCommit.Effects commit(UUID runId, TaskCommit commit) {
		if (TaskCommitRepository.isSingleStatement(commit)) {
			this.hooks.beforeTaskCommit(runId);
			return this.taskCommits.commitAlone(commit);
		}
		return this.tx.execute((status) -> {
			this.hooks.beforeTaskCommit(runId);
			TaskCommit.Effects done = this.taskCommits.commit(commit);
			if (done == null) {
				status.setRollbackOnly();
			}
			return done;
		});
	}

	private Optional<RunRepository.Loaded> load(RunSlot slot) {
		// cleared before reading: a wake-up during the read sets it again
		slot.needsRead = false;
		slot.cachedRow = null;
		return this.runs.load(slot.runId);
	}

	WorkflowRunner rebuild(RunSlot slot, RunRow row) {
		if (!slot.chainKnown) {
			slot.chain = this.runs.chain(row.runId());
			slot.chainKnown = true;
		}
		// a run that has not committed a task has no history to read
		return Replays.forTask(row, this.workflows.find(row.workflowType()), this.factory, this.payloads, this.config,
				slot.chain, (row.historySeq() == 0) ? List.of() : this.tasks.history(row.runId()));
	}

	private void afterCommit(RunSlot slot, RunRow row, WorkflowRunner runner, List<StoredActivity> started) {
		String workflowId = row.workflowId();
		started.forEach((activity) -> this.activityExecutor.start(slot, workflowId, activity));
		Instant next = TaskCommitBuilder.earliest(runner.nextTimer(), row.deadline());
		if (next != null) {
			this.wake.schedule(next, () -> scheduleKeepingCache(slot));
		}
	}

	/** The run closed: forget it. */
	void drop(RunSlot slot) {
		this.slots.remove(slot.runId, slot);
		discard(slot);
	}

	/** Another node took the run (or it was terminated): stop everything this node does for it. */
	void lost(RunSlot slot) {
		log.info("Run {} is no longer owned by this node (epoch {}); evicting it", slot.runId, slot.epoch);
		drop(slot);
	}

	/**
	 * Stops everything this node does for the slot. Its runner is destroyed under the task lock:
	 * at once when no task, query or activity bookkeeping holds it, else by the holder as it lets
	 * go ({@link RunSlot#unlockTask}), so nothing destroys a runner in use.
	 */
	void discard(RunSlot slot) {
		slot.dead = true;
		if (slot.taskLock.tryLock()) {
			try {
				slot.destroyRunner();
			}
			finally {
				slot.taskLock.unlock();
			}
		}
		for (Long seq : List.copyOf(slot.inflight.keySet())) {
			this.activityExecutor.cancel(slot, seq);
		}
	}

	/** The node's cache eviction: idle runs, everything when declared dead, all at shutdown. */
	RunEviction eviction() {
		return this.eviction;
	}

}
