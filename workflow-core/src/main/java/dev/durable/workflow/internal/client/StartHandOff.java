package dev.durable.workflow.internal.client;

import dev.durable.workflow.internal.queue.QueueWaker;
import dev.durable.workflow.internal.versioning.BuildRouter;
import dev.durable.workflow.internal.worker.LocalNode;
import dev.durable.workflow.internal.worker.RunWaker;

/**
 * Who a committed start hands its run to: this node (which may run its first task at
 * once), the wake-up of the run's node, and the dispatcher of flow-control queues.
 *
 * @param node this node
 * @param waker wakes the node that runs the run
 * @param queueWaker wakes the dispatcher of a flow-control queue the start waits in
 * @param routing which build a new run belongs to (its first task runs here at once only
 * on a node of that build)
 */
public record StartHandOff(LocalNode node, RunWaker waker, QueueWaker queueWaker, BuildRouter routing) {
}
