package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.util.Set;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.queue.QueueAdmission;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.store.Stores;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.taskqueue.ActivityTaskWorker;
import dev.durable.workflow.internal.wakeup.WakeupChannel;

/**
 * A worker node's part in the activity task queues: its {@link ActivityTaskWorker} (the
 * sweep on every worker node, claims on the nodes serving queues), and where the news of
 * queued work goes: to this node's worker when it serves the queue, else to the other
 * nodes by NOTIFY.
 */
final class NodeTaskQueues {

	private final QueueAdmission admission;

	private volatile ActivityTaskWorker worker;

	private volatile WakeupChannel wakeups;

	/**
	 * @param admission the admission rounds of flow-control queues (a task queue may be
	 * limited by one)
	 */
	NodeTaskQueues(QueueAdmission admission) {
		this.admission = admission;
	}

	/** Starts the node's worker (on worker nodes). */
	void start(EngineSettings config, ActivityRegistry registry, Stores stores, Payloads payloads, Clock clock,
			UUID nodeId, LongSupplier incarnation, Listeners listeners, BiConsumer<UUID, UUID> wakeRun,
			WakeupChannel wakeups) {
		this.wakeups = wakeups;
		this.worker = TaskQueueWorkers
			.create(config, registry, stores, payloads, clock, nodeId, incarnation, listeners, wakeRun, this.admission,
					wakeups::notifyTaskQueue)
			.start();
	}

	/**
	 * A commit here queued task-queue activities: this node's worker claims them, or
	 * another node's.
	 */
	void queued(Set<String> queues) {
		ActivityTaskWorker current = this.worker;
		if (current != null && current.servesAny(queues)) {
			current.wake();
			return;
		}
		WakeupChannel channel = this.wakeups;
		if (channel != null) {
			queues.forEach(channel::notifyTaskQueue);
		}
	}

	/** Another node queued work on a task queue. */
	void woken(String queue) {
		ActivityTaskWorker current = this.worker;
		if (current != null && current.servesAny(Set.of(queue))) {
			current.wake();
		}
	}

	/** The settable clock moved: a round at once, with a sweep of the deadlines. */
	void clockMoved() {
		ActivityTaskWorker current = this.worker;
		if (current != null) {
			current.clockMoved();
		}
	}

	/** Shutdown begins: no claim from now on; attempts under way run on. */
	void stopClaiming() {
		ActivityTaskWorker current = this.worker;
		if (current != null) {
			current.stopClaiming();
		}
	}

	/** Shutdown: waits until no claimed attempt runs, or the deadline. */
	void awaitIdle(long deadlineNanos) {
		ActivityTaskWorker current = this.worker;
		if (current != null) {
			current.awaitIdle(deadlineNanos);
		}
	}

	/**
	 * Shutdown ends: attempts still running are given up, and the worker's loop stops.
	 */
	void close() {
		ActivityTaskWorker current = this.worker;
		if (current != null) {
			current.abandonRunning();
			current.close();
		}
	}

	/** Whether an attempt claimed from a task queue runs on this node now. */
	boolean anyRunning() {
		ActivityTaskWorker current = this.worker;
		return current != null && current.runningAttempts() > 0;
	}

	boolean isIdle() {
		ActivityTaskWorker current = this.worker;
		return current == null || current.isIdle();
	}

}
