package dev.durable.workflow.internal.queue;

/**
 * Tells the dispatchers that a run was started into a queue: the local one when this node
 * runs the run's type and task queue, else the other nodes (a notification). Called after
 * the commit that stored the start.
 */
@FunctionalInterface
public interface QueueWaker {

	void enqueued(String queue, String workflowType, String taskQueue);

}
