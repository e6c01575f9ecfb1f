package dev.durable.workflow.internal.taskqueue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.internal.activity.ActivityAttempt;
import dev.durable.workflow.internal.activity.ActivityInvoker;
import dev.durable.workflow.internal.queue.QueueAdmission;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.support.BackgroundThreads;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.internal.support.Payloads;

/**
 * A node's side of the activity task queues. Every worker node sweeps (timeouts and dead
 * workers of task-queue attempts, see {@link SweepActivities}); a node that serves task
 * queues also claims their due attempts of the activity types registered on it, up to its
 * free capacity, and runs each on a virtual thread ({@link RunClaimedActivity}). A round
 * runs when asked (a commit on this node queued work, a notification from another node, a
 * freed slot, a move of the settable clock) and at least once a poll interval, the
 * fallback that guarantees progress.
 */
public final class ActivityTaskWorker implements AutoCloseable {

	private static final Logger log = LoggerFactory.getLogger(ActivityTaskWorker.class);

	private record Running(ClaimedActivity claimed, ActivityAttempt attempt) {
	}

	private final String namespace;

	private final Set<String> queues;

	private final ActivityRegistry registry;

	private final ActivityClaims claims;

	private final SweepActivities sweep;

	private final RunClaimedActivity runner;

	private final Clock clock;

	private final UUID node;

	private final LongSupplier incarnation;

	private final Semaphore permits;

	private final Duration pollInterval;

	private final BiConsumer<UUID, UUID> wakeRun;

	private final Map<UUID, Running> running = new ConcurrentHashMap<>();

	private final QueueAdmission admission;

	/**
	 * Tells the other nodes serving a limited task queue that one of its slots is free.
	 */
	private final java.util.function.Consumer<String> slotFreed;

	private final TransactionTemplate tx;

	private final JdbcTemplate jdbc;

	private final String schema;

	private final Object signal = new Object();

	private boolean requested;

	private volatile boolean claiming = true;

	/** Held by a claim and its launch, and by {@link #stopClaiming}. */
	private final Object claimLock = new Object();

	/**
	 * Whether the last round filled every slot: a slot freed then is worth a round at
	 * once.
	 */
	private volatile boolean starved;

	private volatile boolean housekeepingDue = true;

	private long lastHousekeeping;

	/**
	 * The served task queues a flow-control queue of the same name limits (read with the
	 * housekeeping).
	 */
	private volatile Set<String> limited = Set.of();

	private volatile boolean open = true;

	private Thread thread;

	/**
	 * @param incarnation the node's current incarnation (claims are fenced by it)
	 */
	public ActivityTaskWorker(TaskQueueSettings settings, TaskQueueDatabase database, ActivityRegistry registry,
			Payloads payloads, Clock clock, UUID node, LongSupplier incarnation, QueueAdmission admission,
			ActivityTaskListeners told) {
		JdbcTemplate jdbc = database.jdbc();
		String schema = database.schema();
		this.admission = admission;
		this.slotFreed = told.slotFreed();
		this.tx = database.tx();
		this.jdbc = jdbc;
		this.schema = schema;
		this.namespace = settings.namespace();
		this.queues = Set.copyOf(settings.queues());
		this.registry = registry;
		this.claims = new ActivityClaims(jdbc, schema, settings.deadAfter());
		ActivityOutcomes outcomes = new ActivityOutcomes(jdbc, schema);
		this.sweep = new SweepActivities(jdbc, this.tx, schema, outcomes, told.observer(), settings.deadAfter());
		this.runner = new RunClaimedActivity(new ActivityInvoker(registry, payloads), outcomes, payloads, clock,
				told.observer(), told.wakeRun());
		this.clock = clock;
		this.node = node;
		this.incarnation = incarnation;
		this.permits = new Semaphore(settings.maxConcurrent());
		this.pollInterval = settings.pollInterval();
		this.wakeRun = told.wakeRun();
	}

	public ActivityTaskWorker start() {
		this.thread = Thread.ofPlatform().daemon().name("durable-task-queues").start(this::loop);
		return this;
	}

	/** Whether this node claims activities of any of the queues. */
	public boolean servesAny(Set<String> taskQueues) {
		for (String queue : taskQueues) {
			if (this.queues.contains(queue)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Runs a round at once (again, if one is under way: what asked may have come after
	 * its reads).
	 */
	public void wake() {
		synchronized (this.signal) {
			this.requested = true;
			this.signal.notifyAll();
		}
	}

	/** How many claimed attempts run on this node now. */
	public int runningAttempts() {
		return this.running.size();
	}

	/**
	 * Stops claiming (shutdown): attempts under way finish, and the sweep goes on until
	 * {@link #close}. Waits for a claim under way, so no attempt starts once this
	 * returns.
	 */
	public void stopClaiming() {
		synchronized (this.claimLock) {
			this.claiming = false;
		}
	}

	/**
	 * Shutdown, at its deadline: the attempts still running are given up. Their outcomes,
	 * should they come before the JVM exits, are dropped; their rows stay claimed by this
	 * node, which the other nodes' sweeps find lost as soon as the node has unregistered,
	 * and retry.
	 * @return how many attempts were given up
	 */
	public int abandonRunning() {
		List<Running> now = List.copyOf(this.running.values());
		for (Running attempt : now) {
			log.warn(
					"Giving up activity {} (seq {}) of run {} at shutdown: it is still running after the shutdown"
							+ " timeout and will be retried",
					attempt.claimed().activityType(), attempt.claimed().seq(), attempt.claimed().runId());
			RunClaimedActivity.stop(attempt.attempt());
		}
		return now.size();
	}

	private void loop() {
		while (this.open) {
			try {
				round();
			}
			catch (RuntimeException ex) {
				if (Errors.fenced(ex)) {
					log.debug("Skipped while the node is fenced: {}", Errors.rootMessage(ex));
				}
				else {
					log.warn("Claiming or sweeping task-queue activities failed: {}", Errors.rootMessage(ex));
				}
			}
			synchronized (this.signal) {
				try {
					if (!this.requested) {
						this.signal.wait(this.pollInterval.toMillis());
					}
					this.requested = false;
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}
	}

	/**
	 * Makes the next round sweep and check the running attempts, whenever it comes: the
	 * settable clock moved, so deadlines may have passed.
	 */
	public void clockMoved() {
		this.housekeepingDue = true;
		wake();
	}

	/**
	 * One round: claim what fits; at most once a poll interval (or after a move of the
	 * settable clock) also sweep and stop attempts that are no longer current. A round
	 * asked for by new work or a freed slot only claims, so a busy queue costs one claim
	 * statement per round.
	 */
	void round() {
		Instant now = this.clock.instant();
		long nanos = System.nanoTime();
		if (this.housekeepingDue || nanos - this.lastHousekeeping >= this.pollInterval.toNanos()) {
			this.housekeepingDue = false;
			this.lastHousekeeping = nanos;
			for (ActivityOutcomes.Delivered delivered : this.sweep.sweep(this.namespace, now)) {
				this.wakeRun.accept(delivered.runId(), delivered.owner());
			}
			stopStale();
			this.limited = this.claims.declaredQueues(this.namespace, this.queues);
		}
		if (!this.claiming || this.queues.isEmpty()) {
			return;
		}
		Set<String> types = this.registry.names();
		if (this.permits.availablePermits() == 0 || types.isEmpty()) {
			return;
		}
		boolean more = false;
		synchronized (this.claimLock) {
			for (String queue : this.queues) {
				if (!this.claiming) {
					return; // the node began to stop during this round
				}
				int room = this.permits.availablePermits();
				if (room == 0) {
					more = true;
					break;
				}
				List<ClaimedActivity> claimed = claim(queue, types, now, room);
				launch(claimed);
				more |= claimed.size() == room;
			}
		}
		this.starved = more;
		if (more) {
			wake(); // there may be more
		}
	}

	/**
	 * Claims due attempts of one queue: under the limits of the flow-control queue of the
	 * same name when a node declared one (an admission round, in its own transaction),
	 * else up to {@code room}.
	 */
	private List<ClaimedActivity> claim(String queue, Set<String> types, Instant now, int room) {
		return this.tx.execute((status) -> {
			// A claim need not wait for its WAL flush: lost in a crash of the database,
			// the attempt is
			// simply due again (its token is gone, so this node's outcome of it would
			// change nothing),
			// which is the at-least-once an activity has anyway. Outcomes are always
			// flushed.
			this.jdbc.execute("SET LOCAL synchronous_commit TO OFF");
			if (this.limited.contains(queue)) {
				ActivityQueueSource source = new ActivityQueueSource(this.jdbc, this.schema, this.claims, types,
						this.node, this.incarnation);
				Optional<QueueAdmission.Result<ClaimedActivity>> admitted = this.admission.admit(this.namespace, queue,
						this.node, now, room, source);
				if (admitted.isPresent()) {
					return admitted.get().admitted();
				}
			}
			return this.claims.claim(this.namespace, List.of(queue), types, this.node, this.incarnation.getAsLong(),
					now, room);
		});
	}

	private void launch(List<ClaimedActivity> claimed) {
		for (ClaimedActivity activity : claimed) {
			this.permits.acquireUninterruptibly();
			ActivityAttempt attempt = this.runner.prepare(activity);
			this.running.put(activity.token(), new Running(activity, attempt));
			Thread.ofVirtual().name("durable-activity").start(() -> {
				try {
					this.runner.run(activity, attempt);
				}
				finally {
					this.running.remove(activity.token());
					this.permits.release();
					String queue = activity.options().taskQueue();
					if (this.limited.contains(queue)) {
						// a slot of the queue is free: for this node's next round and the
						// other nodes'
						this.slotFreed.accept(queue);
						wake();
					}
					else if (this.starved) {
						wake(); // a slot of this node is free for work that waits
					}
				}
			});
		}
	}

	/**
	 * Stops running attempts whose token is gone (canceled by their workflow, or swept).
	 */
	private void stopStale() {
		if (this.running.isEmpty()) {
			return;
		}
		List<Running> now = List.copyOf(this.running.values());
		Set<UUID> current = this.claims.current(now.stream().map(Running::claimed).toList());
		for (Running attempt : now) {
			if (!current.contains(attempt.claimed().token()) && this.running.containsKey(attempt.claimed().token())) {
				log.info("Stopping activity {} (seq {}) of run {}: it is no longer awaited (canceled or timed out)",
						attempt.claimed().activityType(), attempt.claimed().seq(), attempt.claimed().runId());
				RunClaimedActivity.stop(attempt.attempt());
			}
		}
	}

	/** Waits until no claimed attempt runs, or the deadline. */
	public void awaitIdle(long deadlineNanos) {
		while (!this.running.isEmpty() && System.nanoTime() < deadlineNanos) {
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	/** Whether nothing runs and nothing is due now (for the test kit's time skipping). */
	public boolean isIdle() {
		if (!this.running.isEmpty()) {
			return false;
		}
		if (this.queues.isEmpty()) {
			return true;
		}
		Instant due = this.claims.nextDue(this.namespace, this.queues);
		return due == null || due.isAfter(this.clock.instant());
	}

	@Override
	public void close() {
		this.open = false;
		this.claiming = false;
		if (this.thread != null) {
			this.thread.interrupt();
		}
		BackgroundThreads.awaitEnded(this.thread);
	}

}
