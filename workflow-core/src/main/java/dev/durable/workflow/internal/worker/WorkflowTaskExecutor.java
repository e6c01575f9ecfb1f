package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.commit.TaskCommit;
import dev.durable.workflow.internal.commit.TaskCommitBuilder;
import dev.durable.workflow.internal.execution.Continuations;
import dev.durable.workflow.internal.execution.WakeScheduler;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.node.NodeLease;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunOwnership;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.support.Errors;

/**
 * Schedules the workflow tasks of the runs this node owns: one slot per run held in
 * memory, at most one task of a run queued and one running, each a {@link WorkflowTask}
 * under the slot's task lock; what a commit sets going is {@link CommitEffects}'.
 */
final class WorkflowTaskExecutor {

	private static final Logger log = LoggerFactory.getLogger(WorkflowTaskExecutor.class);

	private final EngineSettings config;

	private final UUID node;

	private final Clock clock;

	private final RunRepository runs;

	private final RunOwnership ownership;

	private final ExecutorService pool;

	private final Listeners listeners;

	private final RunEffects outside;

	private final Map<UUID, RunSlot> slots = new ConcurrentHashMap<>();

	/**
	 * Slots let go (the node was declared dead, the run was lost or closed) while a task
	 * of theirs still ran, until it ends: the run is taken up again here only after it
	 * (see {@link #adopt}).
	 */
	private final Map<UUID, RunSlot> leaving = new ConcurrentHashMap<>();

	private final TaskCommitBuilder commits;

	private final Runners runners;

	private final TaskCommitter committer;

	private final CommitEffects effects;

	private final RunEviction eviction;

	private final TaskFailures taskFailures;

	private final ResultWaiters waiters;

	private final NodeLease lease;

	/**
	 * @param outside the activities of the runs and the other nodes, which tasks and
	 * their commits set going
	 */
	WorkflowTaskExecutor(EngineSettings config, UUID node, Clock clock, NodeLease lease, WorkflowCode code,
			TaskStores stores, TaskThreads threads, TaskObservers observers, RunEffects outside) {
		RunRepository runs = stores.runs();
		WakeScheduler wake = threads.wake();
		ResultWaiters waiters = observers.waiters();
		Listeners listeners = observers.listeners();
		this.lease = lease;
		this.config = config;
		this.node = node;
		this.clock = clock;
		this.runs = runs;
		this.ownership = stores.ownership();
		this.pool = threads.pool();
		this.listeners = listeners;
		this.outside = outside;
		this.waiters = waiters;
		this.commits = new TaskCommitBuilder(node, code.workflows(), runs, config.taskQueues(), stores.routing());
		this.runners = new Runners(code.workflows(), code.factory(), code.payloads(), config, runs, stores.tasks(),
				outside::localActivities, outside::activityAttempts);
		this.committer = new TaskCommitter(stores.commits(), stores.tx(), observers.hooks(), lease, stores.routing(),
				clock);
		this.effects = new CommitEffects(node, clock, runs, stores.tx(), wake, waiters, listeners,
				config.historyLimits(), outside, this, stores.routing());
		this.eviction = new RunEviction(this.slots, stores.ownership(), node, config, clock, this::evict);
		this.taskFailures = new TaskFailures(stores.ownership(), node, clock, wake, listeners, this::schedule,
				this::lost);
	}

	TaskCommitBuilder commits() {
		return this.commits;
	}

	Map<UUID, RunSlot> slots() {
		return this.slots;
	}

	/**
	 * Whether a task of a held run is queued or running (the node waits for them when it
	 * stops).
	 */
	boolean anyTaskBusy() {
		for (RunSlot slot : this.slots.values()) {
			if (!slot.isDead() && slot.isBusy()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a task of a let-go slot still runs (it may commit, and a run waits to be
	 * taken up after it).
	 */
	boolean anyLeavingTask() {
		for (RunSlot slot : this.leaving.values()) {
			if (slot.isTaskRunning()) {
				return true;
			}
		}
		return false;
	}

	/** Whether a live slot of the run is cached here. */
	boolean holds(UUID runId) {
		RunSlot slot = this.slots.get(runId);
		return slot != null && !slot.isDead();
	}

	/** A slot for a run this node is starting, not yet held (see {@link FirstTasks}). */
	RunSlot startingSlot(NewRun run, long epoch) {
		return RunSlot.starting(run, epoch, this::scheduleKeepingCache);
	}

	/**
	 * Takes a run this node just started or claimed and schedules its task. When a task
	 * of the run's previous slot here still runs (the slot was let go under it: the node
	 * was declared dead, or the run lost), the run is taken up only once that task ended:
	 * that task may be committing (the run was not taken by another node, so its
	 * compare-and-set holds), and a task beside it would read the history without that
	 * commit and run its local activities again.
	 */
	void adopt(UUID runId, long epoch, boolean recoverActivities) {
		RunSlot[] runningBefore = new RunSlot[1];
		RunSlot slot = this.slots.compute(runId, (id, existing) -> {
			if (existing != null && existing.epoch() == epoch && !existing.isDead()) {
				return existing;
			}
			if (existing != null) {
				discard(existing);
			}
			RunSlot before = this.leaving.get(id);
			if (before != null && before.isTaskRunning()) {
				runningBefore[0] = before;
				return null;
			}
			return new RunSlot(id, epoch, recoverActivities, this::scheduleKeepingCache);
		});
		if (slot == null) {
			if (!runningBefore[0].deferUntilTaskEnds(() -> adopt(runId, epoch, recoverActivities))) {
				adopt(runId, epoch, recoverActivities); // the task ended meanwhile
			}
			return;
		}
		schedule(slot);
	}

	/**
	 * Wakes a run this node owns, or asks the other nodes to look (the owner is not known
	 * here).
	 */
	void wakeAnywhere(UUID runId) {
		RunSlot slot = this.slots.get(runId);
		if (slot != null) {
			schedule(slot);
		}
		else {
			this.outside.wakeElsewhere(runId);
		}
	}

	/** Wakes an owned run (input arrived, timer due). */
	void wake(UUID runId) {
		RunSlot slot = this.slots.get(runId);
		if (slot != null) {
			schedule(slot);
		}
	}

	/**
	 * Wakes a run another node told this node it owns; when it is not held here (evicted,
	 * or the sender's view of its owner is old), the poll finds it instead.
	 */
	void wakeOrPoll(UUID runId, Runnable poll) {
		RunSlot slot = this.slots.get(runId);
		if (slot != null) {
			schedule(slot);
		}
		else {
			poll.run();
		}
	}

	/**
	 * Schedules a task that reads the run row and inbox first: something outside may have
	 * changed.
	 */
	void schedule(RunSlot slot) {
		slot.requireRead();
		scheduleKeepingCache(slot);
	}

	/**
	 * Schedules a task that may start from the cached row (an input handed over, a timer
	 * of the cache).
	 */
	void scheduleKeepingCache(RunSlot slot) {
		if (slot.waitsForRetry(this.clock.instant())) {
			return;
		}
		if (!slot.isDead() && slot.markScheduled()) {
			submit(slot);
		}
	}

	void submit(RunSlot slot) {
		if (this.pool.isShutdown()) {
			return; // the engine is shutting down: the run is released and picked up
					// again elsewhere
		}
		try {
			Continuations.runNextOr(this.pool, () -> Continuations.accepting(() -> runSlot(slot)));
		}
		catch (RejectedExecutionException ex) {
			// the engine is shutting down: the run is released and picked up again
			// elsewhere
		}
	}

	private void runSlot(RunSlot slot) {
		slot.beginRun();
		slot.lockTask();
		try {
			// a fenced node starts no task: its runs may soon be another node's (see
			// NodeLease)
			if (!slot.isDead() && !slot.waitsForRetry(this.clock.instant()) && !this.lease.isFenced()) {
				new WorkflowTask(slot, this.node, this.clock, this.runs, this.ownership, this.runners, this.commits,
						this.committer, this.taskFailures, this.effects, this.outside, this, this.listeners)
					.run();
			}
		}
		catch (RuntimeException ex) {
			// the database is unreachable or the outcome is unknown: forget the cached
			// state
			// a database problem is logged briefly; anything else is a bug worth its
			// stack trace
			log.warn("Workflow task of run {} did not complete: {}", slot.runId(), Errors.rootMessage(ex),
					(ex instanceof DataAccessException) ? null : ex);
			this.listeners.taskFailed(ex);
			slot.destroyRunner();
			// an infrastructure retry: by wall-clock time, whatever the engine clock does
			CompletableFuture.delayedExecutor(this.config.pollInterval().toMillis(), TimeUnit.MILLISECONDS, this.pool)
				.execute(() -> schedule(slot));
		}
		finally {
			this.listeners.taskEnded();
			slot.unlockTask();
			slot.usedAt(this.clock.instant());
			taskEnded(slot);
		}
	}

	/**
	 * After a task of the slot (also a first task, see {@link FirstTasks}): submits the
	 * next one it asked for; when the slot was let go meanwhile, takes the run up again
	 * if that was deferred until now.
	 */
	void taskEnded(RunSlot slot) {
		if (slot.endRun()) {
			submit(slot);
		}
		if (slot.isDead()) {
			this.leaving.remove(slot.runId(), slot);
			slot.takeSuccessors().forEach(Runnable::run);
		}
	}

	/**
	 * After a task's commit (also a first task's, see {@link FirstTasks}): see
	 * {@link CommitEffects}.
	 */
	void committed(RunSlot slot, RunRow row, WorkflowRunner runner, TaskCommit commit, TaskCommit.Effects effects) {
		this.effects.committed(slot, row, runner, commit, effects);
	}

	WorkflowRunner rebuild(RunSlot slot, RunRow row) {
		return this.runners.rebuild(slot, row);
	}

	/** The run closed: forget it. */
	void drop(RunSlot slot) {
		this.slots.remove(slot.runId(), slot);
		discard(slot);
	}

	/**
	 * Another node took the run (or it was terminated): stop everything this node does
	 * for it.
	 */
	/** The node gave the run up to another node: it forgets it. */
	void givenUp(RunSlot slot) {
		evict(slot);
	}

	void lost(RunSlot slot) {
		log.info("Run {} is no longer owned by this node (epoch {}); evicting it", slot.runId(), slot.epoch());
		evict(slot);
	}

	/**
	 * The run leaves this node open: its result waiters here, which expected the outcome
	 * handed over, read the run again (and mark it awaited, so that its close elsewhere
	 * notifies them).
	 */
	private void evict(RunSlot slot) {
		drop(slot);
		this.waiters.wake(slot.runId());
	}

	/**
	 * Stops everything this node does for the slot. Its runner is destroyed under the
	 * task lock ({@link RunSlot#markDead}), so nothing destroys a runner in use.
	 */
	void discard(RunSlot slot) {
		slot.markDead();
		// a task still running for it is waited for before the run is taken up again
		// here; put
		// first, then looked at: a task that ended meanwhile takes it out itself, or it
		// is taken out here
		this.leaving.put(slot.runId(), slot);
		if (!slot.isTaskRunning()) {
			this.leaving.remove(slot.runId(), slot);
		}
		for (Long seq : slot.runningActivities()) {
			this.outside.cancelActivity(slot, seq);
		}
	}

	/**
	 * The node's cache eviction: idle runs, everything when declared dead, all at
	 * shutdown.
	 */
	RunEviction eviction() {
		return this.eviction;
	}

}
