package dev.durable.workflow.internal.node;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background services of one started node, in the order they start; they stop in the
 * reverse order. A worker node's stop, in that order:
 * <ol>
 * <li>At once ({@link #begin}), it takes no new work: no schedule fires, no run is
 * claimed, no flow-control queue admits, no task-queue attempt is claimed, and no
 * activity attempt starts, not even one that a task committed during the stop scheduled
 * (the next owner starts it).</li>
 * <li>The attempts under way, inline and claimed from task queues, run on until they end
 * or the shutdown timeout passes.</li>
 * <li>Their outcomes commit: a task-queue attempt's goes to the run's inbox as it ends;
 * an inline attempt's wakes its run, whose task commits it (a short grace past the
 * timeout lets the tasks that an attempt ending just in time woke commit).</li>
 * <li>The loops end: poll, wake-up listener, queue dispatcher, due actions, task-queue
 * worker, task pool, group commit.</li>
 * <li>The node releases its runs (their owner cleared, so another node claims them at
 * once rather than after {@code dead-after}), unregisters (its task-queue attempts become
 * claimable by the other nodes' sweeps at once) and tells the other nodes to look for
 * work; then its notification channel closes.</li>
 * </ol>
 * Attempts still running at the timeout are given up: the node that takes their run over,
 * or the sweep of their task queue, retries them by their retry policy, so they may run
 * again (activities are at-least-once). The node keeps heartbeating while it waits (the
 * heartbeat started before, so it stops after), so that no other node declares it dead
 * and takes its runs from under the attempts it lets finish. Every service has ended, or
 * was reported stuck past a bound, before {@link #finish} returns: nothing of the node
 * reaches the database afterwards.
 */
public final class NodeServices {

	private static final Logger log = LoggerFactory.getLogger(NodeServices.class);

	private final UUID nodeId;

	private final Duration timeout;

	private final List<NodeService> services;

	/**
	 * When {@link #begin} ran ({@link System#nanoTime}); the timeout counts from then.
	 */
	private long began;

	private boolean begun;

	/**
	 * @param nodeId the node, for the log
	 * @param timeout the shutdown timeout
	 * @param services the services in the order they start
	 */
	public NodeServices(UUID nodeId, Duration timeout, List<NodeService> services) {
		this.nodeId = nodeId;
		this.timeout = timeout;
		this.services = List.copyOf(services);
	}

	/** Starts the services in order. */
	public void start() {
		this.services.forEach(NodeService::start);
	}

	/** Whether the node takes no new work any more. */
	public synchronized boolean hasBegun() {
		return this.begun;
	}

	/**
	 * Step 1, at once and without waiting: the node takes no new work. The attempts under
	 * way have the shutdown timeout from now; {@link #finish} waits for them. Idempotent.
	 */
	public synchronized void begin() {
		if (this.begun) {
			return;
		}
		this.begun = true;
		this.began = System.nanoTime();
		this.services.reversed().forEach(NodeService::beginStop);
		log.info("Durable workflow engine stopping: node {} takes no new work and waits up to {} for the activities"
				+ " under way", this.nodeId, this.timeout);
	}

	/**
	 * The rest of the stop (after {@link #begin}, which this runs if it did not run yet):
	 * each service completes its stop, in the reverse order of their start.
	 */
	public void finish() {
		begin();
		long deadline = this.began + this.timeout.toNanos();
		this.services.reversed().forEach((service) -> service.awaitStopped(deadline));
		log.info("Durable workflow engine stopped: node {}, {} ms after the stop began", this.nodeId,
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.began));
	}

	/**
	 * Waits until the condition holds or the deadline passes. @return whether it holds
	 */
	public static boolean await(BooleanSupplier condition, long deadlineNanos) {
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
