package dev.durable.workflow.internal.wakeup;

import java.util.UUID;

/**
 * A cross-node wake-up, the payload of one LISTEN/NOTIFY notification. Each kind has one
 * record; {@link WakeupCodec} writes and reads the text a notification carries.
 */
public sealed interface Wakeup {

	/** Whichever node can claim a run should look for work soon. */
	record AnyNode() implements Wakeup {

		/** The one instance. */
		public static final AnyNode INSTANCE = new AnyNode();

	}

	/**
	 * One node should look for work soon (it polls).
	 *
	 * @param node the node
	 */
	record Node(UUID node) implements Wakeup {
	}

	/**
	 * The owner of a run should run its task soon: it schedules the run at once if it
	 * holds it, without a poll; else it polls.
	 *
	 * @param node the run's owner
	 * @param runId the run
	 */
	record Run(UUID node, UUID runId) implements Wakeup {
	}

	/**
	 * The other nodes should run an admission round of a flow-control queue. The sender
	 * is named so that it ignores its own notification.
	 *
	 * @param sender the node that asks
	 * @param queue the flow-control queue
	 */
	record QueueRound(UUID sender, String queue) implements Wakeup {
	}

	/**
	 * The nodes serving an activity task queue should claim from it soon.
	 *
	 * @param taskQueue the task queue
	 */
	record TaskQueue(String taskQueue) implements Wakeup {
	}

	/**
	 * A run's events or streams changed: every node's readers re-read.
	 *
	 * @param runId the run
	 */
	record Outputs(UUID runId) implements Wakeup {
	}

	/**
	 * An awaited run closed: every node's result waiters read its outcome.
	 *
	 * @param runId the run
	 */
	record Closed(UUID runId) implements Wakeup {
	}

	/** Events were published on topics: a worker node should dispatch them. */
	record Topics() implements Wakeup {

		/** The one instance. */
		public static final Topics INSTANCE = new Topics();

	}

}
