package dev.durable.workflow.internal.worker;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.inline.InlineRun;
import dev.durable.workflow.internal.runtime.WorkflowRunner;
import dev.durable.workflow.internal.store.NewRun;
import dev.durable.workflow.internal.store.RunChain;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.StoredActivity;

/**
 * A run this node owns: the epoch it holds, the cached runner (if any), inputs handed
 * over in memory (activity completions) and the activities running for it. Tasks of one
 * run never overlap, not even across the run's slots on a node (see
 * {@link WorkflowTaskExecutor#adopt}).
 */
final class RunSlot implements InlineRun {

	private final UUID runId;

	private final long epoch;

	/**
	 * Schedules the slot's next task, keeping its cache: an input was handed over in
	 * memory.
	 */
	private final Consumer<RunSlot> inputArrived;

	/** Only touched by the task that runs the slot. */
	private WorkflowRunner runner;

	/** Whether the pending activities must be reloaded from the store (after a claim). */
	private boolean recoverActivities;

	/** See {@link #commitOutcomeUnknown}; under the task lock. */
	private List<StoredActivity> unconfirmedActivities = List.of();

	private volatile boolean dead;

	private volatile Instant lastUsed;

	/**
	 * Whether the next task must read the run row and inbox. Every wake-up from outside
	 * sets it; only an activity outcome handed over in memory or a timer of the cached
	 * instance leaves it clear, so such a task commits from {@link #cachedRow} in one
	 * round trip (the commit's compare-and-set still proves the row did not change).
	 */
	private volatile boolean needsRead = true;

	/** The run row as this node's last commit left it, or {@code null}. */
	private volatile RunRow cachedRow;

	/** The run's retry policy, cron schedule and task timeout (immutable), once read. */
	private RunChain chain;

	/**
	 * The run's input when this node started it (a retry starts with it), else
	 * {@code null}.
	 */
	private byte[] input;

	/** Whether {@link #chain} was read (it may be {@code null}). */
	private boolean chainKnown;

	/**
	 * After a failed task: no new attempt before this time (its backoff), whatever wakes
	 * the run.
	 */
	private volatile Instant retryNotBefore;

	private final Map<Long, ActivityAttempt> inflight = new ConcurrentHashMap<>();

	/**
	 * The activities of the run that have a row in the database (a failed attempt, a
	 * heartbeat, or found at a takeover); the commit that ends one deletes its row. An
	 * inline activity's first attempt has none. Written under {@link #taskLock}, like the
	 * commits that read it.
	 */
	private final Set<Long> storedActivities = ConcurrentHashMap.newKeySet();

	/**
	 * Activities whose next attempt waits for its retry time; a cancel takes them out.
	 */
	private final Set<Long> waitingRetries = ConcurrentHashMap.newKeySet();

	/**
	 * Held while a task runs, so a query against the cached instance sees committed
	 * state.
	 */
	private final ReentrantLock taskLock = new ReentrantLock();

	private final Deque<Event> mailbox = new ArrayDeque<>();

	/**
	 * Whether the last row a task read said the run is paused; guarded by this slot's
	 * monitor, with {@link #heldLaunches}.
	 */
	private boolean paused;

	/** Activity attempts the pause held back, launched when a task finds it lifted. */
	private List<Runnable> heldLaunches = List.of();

	private boolean scheduled;

	private boolean running;

	/**
	 * What takes the run up again on this node once the running task of this slot, let go
	 * while it ran, ends (see {@link #deferUntilTaskEnds}); guarded by this slot's
	 * monitor.
	 */
	private List<Runnable> successors = List.of();

	/**
	 * @param inputArrived what schedules the slot's next task when an input is handed
	 * over in memory ({@link #handOver})
	 */
	RunSlot(UUID runId, long epoch, boolean recoverActivities, Consumer<RunSlot> inputArrived) {
		this.runId = runId;
		this.epoch = epoch;
		this.recoverActivities = recoverActivities;
		this.inputArrived = inputArrived;
	}

	/**
	 * The slot of a run this node is starting, before it is stored: its chain and input
	 * come from the start, and its first task commits from what it computes, so nothing
	 * is read before the next task.
	 */
	static RunSlot starting(NewRun run, long epoch, Consumer<RunSlot> inputArrived) {
		RunSlot slot = new RunSlot(run.runId(), epoch, false, inputArrived);
		slot.knowChain(run.chain());
		// the run is not stored yet: what a retry of it starts with comes from here
		slot.input = run.input();
		slot.needsRead = false;
		return slot;
	}

	@Override
	public UUID runId() {
		return this.runId;
	}

	@Override
	public long epoch() {
		return this.epoch;
	}

	@Override
	public RunChain chain() {
		return this.chain;
	}

	@Override
	public byte[] input() {
		return this.input;
	}

	/** Whether the chain was read (it may be {@code null}). */
	boolean chainKnown() {
		return this.chainKnown;
	}

	void knowChain(RunChain chain) {
		this.chain = chain;
		this.chainKnown = true;
	}

	// ---- the run's life on this node
	// --------------------------------------------------------

	/**
	 * Whether the node let the run go (closed, lost, evicted): nothing more runs for it
	 * here.
	 */
	@Override
	public boolean isDead() {
		return this.dead;
	}

	/**
	 * Lets the run go: nothing more runs for it. Its runner is destroyed at once when no
	 * task, query or activity bookkeeping holds the task lock, else by the holder as it
	 * lets go ({@link #unlockTask}), so nothing destroys a runner in use.
	 */
	void markDead() {
		this.dead = true;
		if (this.taskLock.tryLock()) {
			try {
				destroyRunner();
			}
			finally {
				this.taskLock.unlock();
			}
		}
	}

	/** When a task last ran (eviction picks the least recently used), or {@code null}. */
	Instant lastUsed() {
		return this.lastUsed;
	}

	void usedAt(Instant time) {
		this.lastUsed = time;
	}

	/**
	 * Whether the pending activities must be reloaded from the store: after a claim,
	 * until {@link #activitiesRecovered} (a recovery the database failed is tried again
	 * by the next task).
	 */
	boolean activityRecoveryDue() {
		return this.recoverActivities;
	}

	/**
	 * The pending activities were taken over: later tasks start only what they schedule.
	 */
	void activitiesRecovered() {
		this.recoverActivities = false;
	}

	/**
	 * A commit's outcome is unknown (its acknowledgment was lost): it may have stored the
	 * activities it scheduled although none was started. Under the task lock.
	 */
	void commitOutcomeUnknown(List<StoredActivity> scheduled) {
		if (!scheduled.isEmpty()) {
			List<StoredActivity> unconfirmed = new ArrayList<>(this.unconfirmedActivities);
			unconfirmed.addAll(scheduled);
			this.unconfirmedActivities = List.copyOf(unconfirmed);
		}
	}

	/**
	 * The activities commits of unknown outcome scheduled (see
	 * {@link #commitOutcomeUnknown}), taken once the run is replayed from what the
	 * database holds: those it awaits were committed.
	 */
	List<StoredActivity> takeUnconfirmedActivities() {
		List<StoredActivity> unconfirmed = this.unconfirmedActivities;
		this.unconfirmedActivities = List.of();
		return unconfirmed;
	}

	// ---- what a task starts from
	// ------------------------------------------------------------

	/** Whether the next task must read the run row and inbox (see {@link #needsRead}). */
	boolean needsRead() {
		return this.needsRead;
	}

	/**
	 * Something outside may have changed the run: its next task reads the row and inbox.
	 */
	void requireRead() {
		this.needsRead = true;
	}

	/**
	 * A task reads the row and inbox: cleared before the read, so a wake-up during it
	 * sets it again.
	 */
	void beginRead() {
		this.needsRead = false;
		this.cachedRow = null;
	}

	/** The run row as this node's last commit left it, or {@code null}. */
	@Override
	public RunRow cachedRow() {
		return this.cachedRow;
	}

	/** Keeps the row the commit left (a closing commit leaves {@code null}). */
	void cacheRow(RunRow row) {
		this.cachedRow = row;
	}

	/** Only touched by the task that runs the slot (or under the task lock). */
	@Override
	public WorkflowRunner runner() {
		return this.runner;
	}

	void useRunner(WorkflowRunner runner) {
		this.runner = runner;
	}

	/**
	 * Ends and forgets a runner the task left in an unknown state; the cached row stays.
	 */
	void forgetRunner() {
		WorkflowRunner cached = this.runner;
		this.runner = null;
		if (cached != null) {
			cached.destroy();
		}
	}

	/**
	 * Forgets the cached runner and row and ends the runner's workflow threads; under the
	 * task lock.
	 */
	void destroyRunner() {
		this.cachedRow = null;
		forgetRunner();
	}

	/**
	 * Whether a failing task still waits for its backoff (the wake-up at that time runs
	 * it).
	 */
	boolean waitsForRetry(Instant now) {
		Instant notBefore = this.retryNotBefore;
		return notBefore != null && now.isBefore(notBefore);
	}

	/**
	 * A task failed: no new attempt before its backoff ends, and the cached row is stale.
	 */
	void retryNotBefore(Instant retryAt) {
		this.cachedRow = null;
		this.retryNotBefore = retryAt;
	}

	/** A task committed: the backoff of failed attempts is over. */
	void retrySucceeded() {
		this.retryNotBefore = null;
	}

	// ---- the task lock
	// ----------------------------------------------------------------------

	@Override
	public void lockTask() {
		this.taskLock.lock();
	}

	boolean tryLockTask() {
		return this.taskLock.tryLock();
	}

	boolean tryLockTask(long timeout, TimeUnit unit) throws InterruptedException {
		return this.taskLock.tryLock(timeout, unit);
	}

	/**
	 * Releases the task lock. A slot let go while the lock was held (see
	 * {@link #markDead}) has its runner destroyed now: the thread that let it go could
	 * not, as the runner was in use.
	 */
	@Override
	public void unlockTask() {
		this.taskLock.unlock();
		if (this.dead && this.taskLock.tryLock()) {
			try {
				destroyRunner();
			}
			finally {
				this.taskLock.unlock();
			}
		}
	}

	// ---- inputs handed over in memory
	// -------------------------------------------------------

	/**
	 * Hands an input (an activity outcome) to the run's next task, which is scheduled for
	 * it.
	 */
	@Override
	public void handOver(Event event) {
		if (this.dead) {
			return;
		}
		deliver(event);
		this.inputArrived.accept(this);
	}

	synchronized void deliver(Event event) {
		this.mailbox.add(event);
	}

	synchronized List<Event> drainMailbox() {
		List<Event> events = new ArrayList<>(this.mailbox);
		this.mailbox.clear();
		return events;
	}

	/** Puts back inputs of a task that did not commit, ahead of newer ones. */
	synchronized void restore(List<Event> events) {
		for (int i = events.size() - 1; i >= 0; i--) {
			this.mailbox.addFirst(events.get(i));
		}
	}

	// ---- pause
	// ---------------------------------------------------------------------------------

	/**
	 * Whether the last row a task read said the run is paused: its next task reads the
	 * row again rather than the cached one.
	 */
	synchronized boolean isPaused() {
		return this.paused;
	}

	/** A task read the row of the paused run: it ran nothing. */
	synchronized void paused() {
		this.paused = true;
	}

	/**
	 * A task read the row of the run unpaused.
	 * @return the attempts held back while it was paused, to launch now (once)
	 */
	synchronized List<Runnable> unpaused() {
		this.paused = false;
		List<Runnable> held = this.heldLaunches;
		this.heldLaunches = List.of();
		return held;
	}

	@Override
	public void inboxChanged() {
		if (this.dead) {
			return;
		}
		requireRead();
		this.inputArrived.accept(this);
	}

	@Override
	public void heldByPause(Runnable launch) {
		synchronized (this) {
			this.paused = true;
			hold(launch);
		}
		this.inputArrived.accept(this);
	}

	@Override
	public synchronized boolean holdWhilePaused(Runnable launch) {
		if (this.paused) {
			hold(launch);
		}
		return this.paused;
	}

	/** Under this slot's monitor. */
	private void hold(Runnable launch) {
		List<Runnable> held = new ArrayList<>(this.heldLaunches);
		held.add(launch);
		this.heldLaunches = held;
	}

	// ---- the run's activities
	// ---------------------------------------------------------------

	/** Whether an attempt of the activity runs for the run. */
	@Override
	public boolean isRunning(long seq) {
		return this.inflight.containsKey(seq);
	}

	@Override
	public void attemptStarted(long seq, ActivityAttempt attempt) {
		this.inflight.put(seq, attempt);
	}

	/**
	 * @return the attempt that ran for the activity, or {@code null}
	 */
	@Override
	public ActivityAttempt attemptEnded(long seq) {
		return this.inflight.remove(seq);
	}

	/** The attempt running for the activity, or {@code null}. */
	@Override
	public ActivityAttempt runningAttempt(long seq) {
		return this.inflight.get(seq);
	}

	/** The activities with an attempt running. */
	@Override
	public List<Long> runningActivities() {
		return List.copyOf(this.inflight.keySet());
	}

	@Override
	public boolean hasStoredActivity(long seq) {
		return this.storedActivities.contains(seq);
	}

	/**
	 * The activity has a row now (a failed attempt, a heartbeat, or found at a takeover).
	 */
	@Override
	public void activityStored(long seq) {
		this.storedActivities.add(seq);
	}

	/** A commit deleted the activity's row. */
	@Override
	public void activityRowDeleted(long seq) {
		this.storedActivities.remove(seq);
	}

	/** The activity's next attempt waits for its retry time. */
	@Override
	public void retryWaits(long seq) {
		this.waitingRetries.add(seq);
	}

	/**
	 * @return whether the activity's retry still waited (a cancel had not taken it out)
	 */
	@Override
	public boolean takeWaitingRetry(long seq) {
		return this.waitingRetries.remove(seq);
	}

	/** Takes out the waiting retries of activities the run no longer awaits. */
	@Override
	public void keepWaitingRetries(LongPredicate awaited) {
		this.waitingRetries.removeIf((seq) -> !awaited.test(seq));
	}

	// ---- scheduling
	// -------------------------------------------------------------------------

	/**
	 * @return true when the caller must submit the task (it was neither queued nor
	 * running)
	 */
	synchronized boolean markScheduled() {
		if (this.scheduled) {
			return false;
		}
		this.scheduled = true;
		return !this.running;
	}

	synchronized void beginRun() {
		this.scheduled = false;
		this.running = true;
	}

	/**
	 * @return true when another task was requested while this one ran
	 */
	synchronized boolean endRun() {
		this.running = false;
		return this.scheduled;
	}

	synchronized boolean isBusy() {
		return this.running || this.scheduled;
	}

	/**
	 * Whether a task of the slot runs now (it may be let go already and still commit).
	 */
	synchronized boolean isTaskRunning() {
		return this.running;
	}

	/**
	 * Defers what takes the run up again on this node (a new slot) until the task that
	 * runs for this let-go slot ends: tasks of one run never overlap on a node, even
	 * across its slots, or the new one would read the history without what the running
	 * one is committing.
	 * @return false when no task runs any more (the caller goes on at once)
	 */
	synchronized boolean deferUntilTaskEnds(Runnable takeUpAgain) {
		if (!this.running) {
			return false;
		}
		List<Runnable> next = new ArrayList<>(this.successors);
		next.add(takeUpAgain);
		this.successors = next;
		return true;
	}

	/**
	 * After {@link #endRun}: what was deferred until the task ended, to run now (once).
	 */
	synchronized List<Runnable> takeSuccessors() {
		List<Runnable> next = this.successors;
		this.successors = List.of();
		return next;
	}

	/**
	 * Whether neither a task nor an activity attempt is queued or running for the run.
	 */
	boolean isIdle() {
		return !isBusy() && this.inflight.isEmpty();
	}

}
