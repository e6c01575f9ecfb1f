package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.util.Set;
import java.util.UUID;

import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.queue.QueueDispatcher;
import dev.durable.workflow.internal.queue.QueueStores;
import dev.durable.workflow.internal.queue.WorkflowQueueSource;
import dev.durable.workflow.internal.wakeup.WakeupChannel;

/**
 * The flow-control queues on one node: the definitions it declares, and on a worker node
 * that runs workflows its {@link QueueDispatcher}, with the wake-ups it gets (starts
 * here, runs closed here, notifications, the settable clock) and sends (notifications to
 * the other nodes).
 */
final class NodeQueues implements AutoCloseable {

	private final EngineSettings config;

	private final UUID nodeId;

	private final Clock clock;

	private final TransactionTemplate tx;

	private final QueueStores stores;

	private volatile QueueDispatcher dispatcher;

	/** The dispatcher whose stop {@link #close} began, for {@link #awaitStopped}. */
	private volatile QueueDispatcher stopping;

	private volatile WakeupChannel wakeups;

	NodeQueues(EngineSettings config, UUID nodeId, Clock clock, TransactionTemplate tx, QueueStores stores) {
		this.config = config;
		this.nodeId = nodeId;
		this.clock = clock;
		this.tx = tx;
		this.stores = stores;
	}

	/**
	 * Writes the node's queue definitions (every node, worker or not) and keeps the
	 * channel to notify with.
	 */
	void start(WakeupChannel channel) {
		this.wakeups = channel;
		this.stores.repository().declare(this.config.namespace(), this.config.queues(), this.clock.instant());
	}

	/** Starts admitting queued runs of the types and task queues this node serves. */
	void startDispatcher(Set<String> types, QueueDispatcher.Adopter adopter, WorkflowQueueSource.TimedOut timedOut) {
		this.dispatcher = new QueueDispatcher(this.config.namespace(), this.nodeId, this.clock,
				this.config.pollInterval(), this.tx, this.stores, types, this.config.taskQueues(),
				this.config.deadAfter(), adopter, (queue) -> this.wakeups.notifyQueue(this.nodeId, queue),
				this.config.buildId(), timedOut)
			.start();
	}

	/** The settable clock moved: delayed starts and rate windows may have come due. */
	void clockMoved() {
		QueueDispatcher current = this.dispatcher;
		if (current != null) {
			current.wakeAll();
		}
	}

	/** Another node asked for a round of a queue. */
	void woken(String queue) {
		QueueDispatcher current = this.dispatcher;
		if (current != null) {
			current.wake(queue);
		}
	}

	/**
	 * A run this node held closed: a queue this node admitted it from has a free slot.
	 */
	void closed(UUID runId) {
		QueueDispatcher current = this.dispatcher;
		if (current != null) {
			current.released(runId);
		}
	}

	/**
	 * A run was started into a queue from this node.
	 * @param servedHere whether this node runs its type and task queue
	 */
	void enqueued(String queue, boolean servedHere) {
		QueueDispatcher current = this.dispatcher;
		if (current != null && servedHere) {
			current.enqueued(queue); // its round notifies the others when this node
										// cannot take the run
		}
		else if (this.wakeups != null) {
			this.wakeups.notifyQueue(this.nodeId, queue);
		}
	}

	/** Whether the dispatcher, if any, has no round asked for or running. */
	boolean isIdle() {
		QueueDispatcher current = this.dispatcher;
		return current == null || current.isIdle();
	}

	/** Begins the stop of the dispatcher at once; {@link #awaitStopped} waits for it. */
	@Override
	public void close() {
		QueueDispatcher current = this.dispatcher;
		if (current != null) {
			current.close();
			this.stopping = current;
		}
		this.dispatcher = null;
	}

	/** Waits (bounded) until the dispatcher stopped by {@link #close} ended. */
	void awaitStopped() {
		QueueDispatcher current = this.stopping;
		if (current != null) {
			current.awaitStopped();
		}
	}

}
