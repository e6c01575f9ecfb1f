package dev.durable.workflow.internal.worker;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.commit.OwnedRun;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.runtime.WorkflowRunner;

/**
 * A run this node owns: the epoch it holds, the cached runner (if any), inputs handed over in
 * memory (activity completions) and the activities running for it. Tasks of one run never overlap.
 */
final class RunSlot implements OwnedRun {

	final UUID runId;

	volatile long epoch;

	/** Only touched by the task that runs the slot. */
	WorkflowRunner runner;

	/** Whether the pending activities must be reloaded from the store (after a claim). */
	boolean recoverActivities;

	volatile boolean dead;

	volatile Instant lastUsed;

	/**
	 * Whether the next task must read the run row and inbox. Every wake-up from outside sets it;
	 * only an activity outcome handed over in memory or a timer of the cached instance leaves it
	 * clear, so such a task commits from {@link #cachedRow} in one round trip (the commit's
	 * compare-and-set still proves the row did not change).
	 */
	volatile boolean needsRead = true;

	/** The run row as this node's last commit left it, or {@code null}. */
	volatile dev.durable.workflow.internal.store.RunRow cachedRow;

	/** The run's retry policy, cron schedule and task timeout (immutable), once read. */
	dev.durable.workflow.internal.store.RunChain chain;

	/** The run's input when this node started it (a retry starts with it), else {@code null}. */
	byte[] input;

	/** Whether {@link #chain} was read (it may be {@code null}). */
	boolean chainKnown;

	/** After a failed task: no new attempt before this time (its backoff), whatever wakes the run. */
	volatile Instant retryNotBefore;

	final Map<Long, ActivityAttempt> inflight = new ConcurrentHashMap<>();

	/**
	 * The activities of the run that have a row in the database (a failed attempt, a heartbeat,
	 * or found at a takeover); the commit that ends one deletes its row. An inline activity's
	 * first attempt has none. Written under {@link #taskLock}, like the commits that read it.
	 */
	final java.util.Set<Long> storedActivities = ConcurrentHashMap.newKeySet();

	/** Activities whose next attempt waits for its retry time; a cancel takes them out. */
	final java.util.Set<Long> waitingRetries = ConcurrentHashMap.newKeySet();

	/** Held while a task runs, so a query against the cached instance sees committed state. */
	final java.util.concurrent.locks.ReentrantLock taskLock = new java.util.concurrent.locks.ReentrantLock();

	private final Deque<Event> mailbox = new ArrayDeque<>();

	private boolean scheduled;

	private boolean running;

	RunSlot(UUID runId, long epoch, boolean recoverActivities) {
		this.runId = runId;
		this.epoch = epoch;
		this.recoverActivities = recoverActivities;
	}

	/**
	 * Releases the task lock. A slot discarded while the lock was held (see
	 * {@link WorkflowTaskExecutor#discard}) has its runner destroyed now: the discarding thread
	 * could not, as the runner was in use.
	 */
	void unlockTask() {
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

	/** Forgets the cached runner and row and ends the runner's workflow threads; under the task lock. */
	void destroyRunner() {
		WorkflowRunner cached = this.runner;
		this.runner = null;
		this.cachedRow = null;
		if (cached != null) {
			cached.destroy();
		}
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

	/** @return true when the caller must submit the task (it was neither queued nor running) */
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

	/** @return true when another task was requested while this one ran */
	synchronized boolean endRun() {
		this.running = false;
		return this.scheduled;
	}

	/**
	 * Idle cached runs to evict: beyond the cache size (least recently used first) or idle past
	 * the timeout. Runs with a task or an activity in flight stay.
	 */
	static List<RunSlot> toEvict(java.util.Collection<RunSlot> slots, int maxCached, java.time.Duration idleTimeout,
			Instant now) {
		List<RunSlot> idle = slots.stream()
			.filter((s) -> !s.isBusy() && s.inflight.isEmpty())
			.sorted(java.util.Comparator.comparing((RunSlot s) -> (s.lastUsed != null) ? s.lastUsed : Instant.MIN))
			.toList();
		int excess = slots.size() - maxCached;
		List<RunSlot> evict = new ArrayList<>();
		for (RunSlot slot : idle) {
			boolean tooOld = slot.lastUsed != null && slot.lastUsed.plus(idleTimeout).isBefore(now);
			if (excess > 0 || tooOld) {
				evict.add(slot);
				excess--;
			}
		}
		return evict;
	}

	@Override
	public long epoch() {
		return this.epoch;
	}

	@Override
	public dev.durable.workflow.internal.store.RunChain chain() {
		return this.chain;
	}

	@Override
	public byte[] input() {
		return this.input;
	}

	@Override
	public boolean hasStoredActivity(long seq) {
		return this.storedActivities.contains(seq);
	}

	synchronized boolean isBusy() {
		return this.running || this.scheduled;
	}

}
