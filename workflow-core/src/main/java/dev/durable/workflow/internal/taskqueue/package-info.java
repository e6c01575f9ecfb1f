/**
 * Activities on task queues: claimed by the nodes serving the queue, run there, their
 * outcomes handed to the run's inbox; their timeouts and dead workers enforced from the
 * database; and the completion client for attempts completed asynchronously.
 */
package dev.durable.workflow.internal.taskqueue;
