package dev.durable.workflow.internal.queue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.internal.support.BackgroundThreads;
import dev.durable.workflow.internal.support.Errors;

/**
 * The admission of queued workflow runs on a worker node that runs workflows: one thread
 * runs rounds ({@link QueueAdmission}) for the queues it is asked about, each in its own
 * transaction, and hands the runs each round admitted to the node once it committed. A
 * queue's round is asked for by a start on this node ({@link #enqueued}), a notification
 * from another node ({@link #wake}), the close of a run this node admitted
 * ({@link #released}), the opening of a full rate window, and, for every declared queue,
 * once a poll interval and whenever the settable clock moves ({@link #wakeAll}): the
 * fallback that guarantees progress. Requests coalesce per queue. Other nodes are
 * notified ({@code notifyOthers}) only after a round this node's own start or release
 * asked for, when the cluster still has room that this node could not use (its per-node
 * limit, or waiting runs it does not serve); rounds that a notification asked for never
 * notify, so nodes do not wake each other in circles.
 */
public final class QueueDispatcher implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(QueueDispatcher.class);

	/**
	 * The most runs one round admits; a round that admitted that many is followed by
	 * another at once.
	 */
	private static final int MAX_PER_ROUND = 64;

	/**
	 * Takes a run this node admitted (after the commit that admitted it): run its first
	 * task.
	 */
	@FunctionalInterface
	public interface Adopter {

		void adopt(UUID runId, long epoch);

	}

	/** Why a round runs; a later constant wins when requests coalesce. */
	private enum Trigger {

		/** A notification, the poll interval, the clock, the rate window. */
		OTHER,

		/** A start into the queue on this node. */
		START,

		/** A run this node admitted closed: its slot is free. */
		RELEASE

	}

	private final String namespace;

	private final UUID node;

	private final Clock clock;

	private final Duration pollInterval;

	private final TransactionTemplate tx;

	private final QueueRepository queues;

	private final QueueAdmission admission;

	private final WorkflowQueueSource source;

	private final Adopter adopter;

	private final Consumer<String> notifyOthers;

	/**
	 * The runs this node admitted that are open as far as it knows, by run id: their
	 * queue.
	 */
	private final Map<UUID, String> admittedHere = new ConcurrentHashMap<>();

	private final Object signal = new Object();

	private final Map<String, Trigger> requested = new LinkedHashMap<>();

	private boolean everything = true;

	/**
	 * Queues held by their rate limit, and when their window opens (engine clock); the
	 * thread's own.
	 */
	private final Map<String, Instant> rateOpens = new HashMap<>();

	private volatile boolean running = true;

	/** Whether the thread is between taking requests and finishing their rounds. */
	private volatile boolean busy;

	private Thread thread;

	/**
	 * @param types the workflow types this node serves
	 * @param taskQueues the task queues it serves
	 * @param deadAfter how long after its last heartbeat a node counts as gone (a dynamic
	 * workflow admits the types no live node serves by name)
	 * @param notifyOthers asks the other nodes to run a round of the queue
	 * @param buildId this node's build: it runs only the admitted runs of its build
	 * @param timedOut tells of the runs a round closed by the admission timeout
	 */
	public QueueDispatcher(String namespace, UUID node, Clock clock, Duration pollInterval, TransactionTemplate tx,
			QueueStores stores, Set<String> types, Set<String> taskQueues, Duration deadAfter, Adopter adopter,
			Consumer<String> notifyOthers, @Nullable String buildId, WorkflowQueueSource.TimedOut timedOut) {
		this.namespace = namespace;
		this.node = node;
		this.clock = clock;
		this.pollInterval = pollInterval;
		this.tx = tx;
		this.queues = stores.repository();
		this.admission = stores.admission();
		this.source = new WorkflowQueueSource(stores.jdbc(), stores.schema(), types, taskQueues, deadAfter, buildId,
				timedOut);
		this.adopter = adopter;
		this.notifyOthers = notifyOthers;
	}

	public QueueDispatcher start() {
		this.thread = Thread.ofPlatform().daemon().name("durable-queues").start(this::loop);
		return this;
	}

	/** A run of a type this node serves was started into the queue here. */
	public void enqueued(String queue) {
		request(queue, Trigger.START);
	}

	/** Another node asked for a round of the queue. */
	public void wake(String queue) {
		request(queue, Trigger.OTHER);
	}

	/** A round of every declared queue (the settable clock moved). */
	public void wakeAll() {
		synchronized (this.signal) {
			this.everything = true;
			this.signal.notifyAll();
		}
	}

	/**
	 * A run closed on this node: when this node admitted it, its queue has a free slot.
	 */
	public void released(UUID runId) {
		String queue = this.admittedHere.remove(runId);
		if (queue != null) {
			request(queue, Trigger.RELEASE);
		}
	}

	private void request(String queue, Trigger trigger) {
		synchronized (this.signal) {
			this.requested.merge(queue, trigger, (a, b) -> (a.compareTo(b) >= 0) ? a : b);
			this.signal.notifyAll();
		}
	}

	private void loop() {
		long nextFull = System.nanoTime();
		while (this.running) {
			Map<String, Trigger> batch;
			boolean full;
			synchronized (this.signal) {
				try {
					while (this.running && this.requested.isEmpty() && !this.everything && System.nanoTime() < nextFull
							&& !rateOpened()) {
						this.signal.wait(waitMillis(nextFull));
					}
				}
				catch (InterruptedException ex) {
					return;
				}
				batch = new LinkedHashMap<>(this.requested);
				this.requested.clear();
				this.busy = true;
				full = this.everything || System.nanoTime() >= nextFull;
				this.everything = false;
			}
			try {
				if (full) {
					nextFull = System.nanoTime() + this.pollInterval.toNanos();
					this.queues.names(this.namespace).forEach((name) -> batch.putIfAbsent(name, Trigger.OTHER));
					forgetMoved();
				}
				dueRateWindows().forEach((name) -> batch.putIfAbsent(name, Trigger.OTHER));
			}
			catch (RuntimeException ex) {
				if (Errors.fenced(ex)) {
					log.debug("Skipped while the node is fenced: {}", Errors.rootMessage(ex));
				}
				else {
					log.warn("Reading the queues to admit from failed: {}", Errors.rootMessage(ex));
				}
			}
			batch.forEach((queue, trigger) -> {
				try {
					round(queue, trigger);
				}
				catch (RuntimeException ex) {
					// the next poll interval tries again
					log.warn("Admitting queued workflows of queue '{}' failed: {}", queue, Errors.rootMessage(ex));
				}
			});
			this.busy = false;
		}
	}

	private long waitMillis(long nextFull) {
		long millis = Math.max(1, (nextFull - System.nanoTime()) / 1_000_000);
		Instant now = this.clock.instant();
		for (Instant opens : this.rateOpens.values()) {
			millis = Math.min(millis, Math.max(1, Duration.between(now, opens).toMillis()));
		}
		return millis;
	}

	private boolean rateOpened() {
		Instant now = this.clock.instant();
		return this.rateOpens.values().stream().anyMatch((opens) -> !opens.isAfter(now));
	}

	private Set<String> dueRateWindows() {
		Instant now = this.clock.instant();
		Set<String> due = new java.util.HashSet<>();
		for (Iterator<Map.Entry<String, Instant>> it = this.rateOpens.entrySet().iterator(); it.hasNext();) {
			Map.Entry<String, Instant> entry = it.next();
			if (!entry.getValue().isAfter(now)) {
				due.add(entry.getKey());
				it.remove();
			}
		}
		return due;
	}

	/**
	 * Forgets the runs this node admitted that it no longer owns open (closed or taken by
	 * another node).
	 */
	private void forgetMoved() {
		if (!this.admittedHere.isEmpty()) {
			Set<UUID> held = this.source.heldBy(this.node, this.admittedHere.keySet());
			this.admittedHere.keySet().removeIf((runId) -> !held.contains(runId));
		}
	}

	private void round(String queue, Trigger trigger) {
		Instant now = this.clock.instant();
		if (!this.source.hasWaiting(this.namespace, queue, now)) {
			if (trigger == Trigger.RELEASE) {
				this.notifyOthers.accept(queue); // its free slot may serve runs this node
													// does not run
			}
			return;
		}
		Optional<QueueAdmission.Result<WorkflowQueueSource.Admitted>> result = this.tx.execute(
				(status) -> this.admission.admit(this.namespace, queue, this.node, now, MAX_PER_ROUND, this.source));
		if (result == null || result.isEmpty()) {
			return; // no node declared it
		}
		result.get().committed();
		for (WorkflowQueueSource.Admitted admitted : result.get().admitted()) {
			// known before its first task runs, so that its close finds it
			this.admittedHere.put(admitted.runId(), queue);
			this.adopter.adopt(admitted.runId(), admitted.epoch());
		}
		AdmissionPlan.Limit heldBy = result.get().heldBy();
		if (heldBy == AdmissionPlan.Limit.BATCH) {
			request(queue, trigger);
		}
		else if (heldBy == AdmissionPlan.Limit.RATE && result.get().rateOpensAt() != null) {
			this.rateOpens.put(queue, result.get().rateOpensAt());
		}
		boolean roomLeft = heldBy == AdmissionPlan.Limit.NODE
				|| (trigger == Trigger.RELEASE && heldBy == AdmissionPlan.Limit.NONE);
		if (trigger != Trigger.OTHER && roomLeft) {
			this.notifyOthers.accept(queue);
		}
	}

	/**
	 * Whether no round is asked for or running (the test kit's quiescence: a round asked
	 * for may admit a run). A poll interval's round counts only while it runs.
	 */
	public boolean isIdle() {
		synchronized (this.signal) {
			return !this.busy && this.requested.isEmpty();
		}
	}

	/**
	 * Begins the stop at once: no new round starts; {@link #awaitStopped} waits for the
	 * one under way.
	 */
	@Override
	public void close() {
		this.running = false;
		if (this.thread != null) {
			this.thread.interrupt();
		}
	}

	/** Waits (bounded) until the dispatcher's thread ended. */
	public void awaitStopped() {
		BackgroundThreads.awaitEnded(this.thread);
	}

}
