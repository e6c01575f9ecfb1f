package dev.durable.workflow.internal.worker;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.internal.commit.TaskCommitRepository;
import dev.durable.workflow.internal.store.NodeRepository;
import dev.durable.workflow.internal.store.RunOwnership;
import dev.durable.workflow.internal.support.Errors;

/**
 * How a node stops, in order:
 * <ol>
 * <li>At once, it takes no new work: no run is claimed, no flow-control queue admits, no
 * task-queue attempt is claimed, and no activity attempt starts, not even one that a task
 * committed during the stop scheduled (the next owner starts it).</li>
 * <li>The attempts under way, inline and claimed from task queues, run on until they end
 * or the shutdown timeout passes.</li>
 * <li>Their outcomes commit: a task-queue attempt's goes to the run's inbox as it ends;
 * an inline attempt's wakes its run, whose task commits it (a short grace past the
 * timeout lets the tasks that an attempt ending just in time woke commit).</li>
 * <li>The node releases its runs (their owner cleared, so another node claims them at
 * once rather than after {@code dead-after}), unregisters (its task-queue attempts become
 * claimable by the other nodes' sweeps at once) and tells the other nodes to look for
 * work.</li>
 * </ol>
 * Attempts still running at the timeout are given up: the node that takes their run over,
 * or the sweep of their task queue, retries them by their retry policy, so they may run
 * again (activities are at-least-once). The node keeps heartbeating while it waits, so
 * that no other node declares it dead and takes its runs from under the attempts it lets
 * finish; a node declared dead all the same stops heartbeating and never registers anew.
 * Every background loop of the node (poll, queue dispatcher, wake-ups, task-queue worker,
 * heartbeat, notifications, group commit) has ended, or was reported stuck past a bound,
 * before the stop returns: nothing of the node reaches the database afterwards.
 */
final class NodeStop {

	private static final Logger log = LoggerFactory.getLogger(NodeStop.class);

	/**
	 * How long past the timeout the tasks that the last outcomes woke may take to commit
	 * them.
	 */
	static final Duration COMMIT_GRACE = Duration.ofSeconds(2);

	/**
	 * What the stop acts on; the node-only parts are {@code null} on a client-only node.
	 */
	record Parts(UUID nodeId, Duration timeout, FallbackPoll poll, NodeHeartbeat heartbeat, NodeQueues queues,
			NodeTaskQueues taskQueues, ActivityExecutor activities, WorkflowTaskExecutor executor, WakeScheduler wake,
			WakeupChannel wakeups, QueryExecutor queries, ExecutorService taskPool, TaskCommitRepository taskCommits,
			RunOwnership ownership, NodeRepository nodes) {
	}

	private final Parts parts;

	/**
	 * When {@link #begin} ran ({@link System#nanoTime}); the timeout counts from then.
	 */
	private long began;

	private boolean begun;

	NodeStop(Parts parts) {
		this.parts = parts;
	}

	/** Whether the node takes no new work any more. */
	synchronized boolean hasBegun() {
		return this.begun;
	}

	/**
	 * Step 1, at once and without waiting: the node takes no new work. The attempts under
	 * way have the shutdown timeout from now; {@link #finish} waits for them. Idempotent.
	 */
	synchronized void begin() {
		if (this.begun) {
			return;
		}
		this.begun = true;
		this.began = System.nanoTime();
		if (this.parts.poll() != null) {
			this.parts.poll().close();
		}
		if (this.parts.heartbeat() != null) {
			this.parts.heartbeat().stopping();
		}
		this.parts.queues().close();
		this.parts.taskQueues().stopClaiming();
		this.parts.activities().drain();
		log.info("Durable workflow engine stopping: node {} takes no new work and waits up to {} for the activities"
				+ " under way", this.parts.nodeId(), this.parts.timeout());
	}

	/** Steps 2 to 4 (after {@link #begin}, which this runs if it did not run yet). */
	void finish() {
		begin();
		Parts parts = this.parts;
		long deadline = this.began + parts.timeout().toNanos();
		boolean worker = parts.poll() != null;
		// 2. the attempts under way end, or the timeout passes
		boolean ended = await(() -> parts.activities().inFlight() == 0 && !parts.taskQueues().anyRunning(), deadline);
		// 3. the tasks their outcomes woke commit them (what those tasks schedule does
		// not start)
		await(() -> !parts.executor().anyTaskBusy() && !parts.executor().anyLeavingTask(),
				Math.max(deadline, System.nanoTime() + COMMIT_GRACE.toNanos()));
		if (!ended) {
			int inline = parts.activities().inFlight();
			if (inline > 0) {
				log.warn("Giving up {} inline activity attempt(s) still running after the shutdown timeout of {}:"
						+ " the node that takes their runs over retries them", inline, parts.timeout());
			}
		}
		// the node's machinery stops: every loop was told to at the begin or is told now,
		// and each is
		// awaited (bounded), so that none of them reaches the database once the stop
		// returns
		if (worker) {
			parts.poll().awaitStopped();
		}
		parts.queues().awaitStopped();
		parts.wake().close();
		parts.taskQueues().close();
		parts.queries().clear();
		parts.taskPool().shutdown();
		try {
			parts.taskPool().awaitTermination(1, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		parts.taskCommits().stopWriter();
		// 4. the runs go to the other nodes, at once
		if (worker) {
			try {
				parts.executor().eviction().releaseAll();
				parts.ownership().releaseAll(parts.nodeId());
				// a heartbeat under way ends first: one after the unregister would
				// register the node anew
				parts.heartbeat().close();
				parts.nodes().unregister(parts.nodeId());
				parts.wakeups().notifyNode(null);
			}
			catch (RuntimeException ex) {
				log.warn("Could not release the runs of node {}: {}", parts.nodeId(), Errors.rootMessage(ex));
			}
			finally {
				// a release that failed (the database unreachable, the node fenced) must
				// not leave the
				// heartbeat running: it would register the stopped node anew once the
				// database answers
				parts.heartbeat().close();
			}
		}
		parts.wakeups().close();
		log.info("Durable workflow engine stopped: node {}, {} ms after the stop began", parts.nodeId(),
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.began));
	}

	/**
	 * Waits until the condition holds or the deadline passes. @return whether it holds
	 */
	private static boolean await(BooleanSupplier condition, long deadlineNanos) {
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() >= deadlineNanos) {
				return false;
			}
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return condition.getAsBoolean();
			}
		}
		return true;
	}

}
