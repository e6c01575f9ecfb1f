package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.node.NodeLease;
import dev.durable.workflow.internal.node.NodeService;
import dev.durable.workflow.internal.retention.Retention;
import dev.durable.workflow.internal.store.BuildRoute;
import dev.durable.workflow.internal.store.NodeRepository;
import dev.durable.workflow.internal.store.RunOwnership;
import dev.durable.workflow.internal.support.BackgroundThreads;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.internal.versioning.BuildRouter;

/**
 * A worker node's fallback poll, the guarantee of progress when a wake-up is lost: once a
 * poll interval, or at once when asked (a notification, a move of the settable clock), it
 * claims runs whose owner is gone and picks up its own runs with work, then evicts idle
 * cached runs. Once a minute it also forgets long-dead nodes and deletes a batch of runs
 * past retention.
 */
final class FallbackPoll implements NodeService {

	private static final Logger log = LoggerFactory.getLogger(FallbackPoll.class);

	private static final int CLAIM_BATCH = 64;

	private final EngineSettings config;

	private final UUID nodeId;

	private final Clock clock;

	private final RunOwnership ownership;

	private final NodeRepository nodes;

	private final Retention retention;

	private final WorkflowTaskExecutor executor;

	private final Supplier<Set<String>> servedTypes;

	private final NodeLease lease;

	private final Object signal = new Object();

	private boolean requested;

	/**
	 * Whether a round a wake-up asked for is under way (guarded by {@link #signal}; set
	 * where the request is taken, so that the two never both read false in between); the
	 * first round is one.
	 */
	private boolean wokenRoundRunning = true;

	private volatile boolean running = true;

	private final BuildRouter routing;

	private Thread thread;

	FallbackPoll(EngineSettings config, UUID nodeId, Clock clock, RunOwnership ownership, NodeRepository nodes,
			Retention retention, WorkflowTaskExecutor executor, Supplier<Set<String>> servedTypes, NodeLease lease,
			BuildRouter routing) {
		this.routing = routing;
		this.lease = lease;
		this.config = config;
		this.nodeId = nodeId;
		this.clock = clock;
		this.ownership = ownership;
		this.nodes = nodes;
		this.retention = retention;
		this.executor = executor;
		this.servedTypes = servedTypes;
	}

	@Override
	public void start() {
		this.thread = Thread.ofPlatform().daemon().name("durable-poll").start(this::loop);
	}

	/**
	 * Polls at once (again, if a poll is under way: what woke it may have come after its
	 * reads).
	 */
	void pollNow() {
		synchronized (this.signal) {
			this.requested = true;
			this.signal.notifyAll();
		}
	}

	private void loop() {
		long lastReap = 0;
		// the first round looks for anything sent before this node listened
		boolean woken = true;
		while (this.running) {
			try {
				if (this.lease.isFenced()) {
					// a fenced node claims nothing, not even its own runs back: see
					// NodeLease
					if (!pause()) {
						return;
					}
					continue;
				}
				pollOnce(woken);
				if (System.nanoTime() - lastReap > TimeUnit.MINUTES.toNanos(1)) {
					lastReap = System.nanoTime();
					this.nodes.reap(this.config.namespace(), this.config.deadAfter().toMillis() * 100);
					this.retention.run(() -> this.running);
				}
			}
			catch (RuntimeException ex) {
				log.warn("Polling for runnable workflows failed: {}", Errors.rootMessage(ex));
			}
			synchronized (this.signal) {
				this.wokenRoundRunning = false;
				try {
					// a wake-up that came while polling is not lost: poll again at once
					if (!this.requested) {
						this.signal.wait(this.config.pollInterval().toMillis());
					}
					woken = this.requested;
					this.requested = false;
					this.wokenRoundRunning = woken;
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}
	}

	/**
	 * Whether no round is asked for or under way that a wake-up asked for (the test kit's
	 * quiescence). Such a round schedules a run's task again even while one runs (its
	 * input may have come after that task read), from what it read before that task
	 * committed: until it ends, a task may still start that nothing in the database
	 * announces. A round of the poll interval schedules only runs the database shows due,
	 * which the quiescence check reads.
	 */
	boolean isIdle() {
		synchronized (this.signal) {
			return !this.requested && !this.wokenRoundRunning;
		}
	}

	/**
	 * One round: claim orphaned runs, pick up owned ones with work, evict idle ones.
	 * @param woken whether a wake-up asked for the round (something new may have come for
	 * a run whose task is running now, which that task did not read), rather than the
	 * poll interval
	 */
	void pollOnce(boolean woken) {
		Instant now = this.clock.instant();
		String[] types = this.servedTypes.get().toArray(String[]::new);
		String[] queues = this.config.taskQueues().toArray(String[]::new);
		Set<UUID> claimed = new HashSet<>();
		BuildRoute route = this.routing.route();
		if (types.length > 0) {
			int batchSize;
			do {
				var batch = this.ownership.claim(this.nodeId, this.config.namespace(), types, queues, now,
						this.config.deadAfter().toMillis(), CLAIM_BATCH, route);
				batch.forEach((c) -> {
					claimed.add(c.runId());
					this.executor.adopt(c.runId(), c.epoch(), true);
				});
				batchSize = batch.size();
			}
			while (batchSize == CLAIM_BATCH && this.running);
		}
		for (RunOwnership.Owned owned : this.ownership.ownedRunnable(this.nodeId, this.config.namespace(), now,
				route)) {
			RunSlot slot = this.executor.slots().get(owned.runId());
			if (slot == null || slot.epoch() != owned.epoch()) {
				this.executor.adopt(owned.runId(), owned.epoch(), true);
			}
			else if (owned.due() && (woken || !slot.isBusy()) && !claimed.contains(owned.runId())) {
				// A round of the poll interval leaves a run with a task queued or running
				// to it: that task
				// reads what is new, or its commit leaves the run marked (pending input,
				// wake time) for the
				// next round; scheduling it again would run a second task for input the
				// first has already
				// taken. A round a wake-up asked for schedules it again: the input may
				// have come after the
				// task read, and it is taken as soon as the task ends, not a poll
				// interval later.
				this.executor.schedule(slot);
			}
		}
		this.executor.eviction().evictIdle();
	}

	/** Waits a poll interval; false when interrupted (closed). */
	private boolean pause() {
		synchronized (this.signal) {
			try {
				this.signal.wait(this.config.pollInterval().toMillis());
				return true;
			}
			catch (InterruptedException ex) {
				return false;
			}
		}
	}

	/**
	 * Begins the stop at once: no new round starts (a round under way ends; see
	 * {@link #awaitStopped}).
	 */
	@Override
	public void beginStop() {
		this.running = false;
		if (this.thread != null) {
			this.thread.interrupt();
		}
	}

	/**
	 * Waits (bounded) for the round under way, which may still claim or adopt runs, to
	 * end.
	 */
	@Override
	public void awaitStopped(long deadlineNanos) {
		BackgroundThreads.awaitEnded(this.thread);
	}

}
