/**
 * Flow-control queues: the limits of a queue (concurrency, per-node concurrency, rate,
 * per-partition concurrency) applied to the items waiting in it.
 * {@link dev.durable.workflow.internal.queue.AdmissionPlan} is the arithmetic,
 * {@link dev.durable.workflow.internal.queue.QueueAdmission} the transaction that holds
 * the queue's row while it admits items of one
 * {@link dev.durable.workflow.internal.queue.QueueSource} (workflow starts here,
 * task-queue activities in the activity claim), and
 * {@link dev.durable.workflow.internal.queue.QueueDispatcher} the loop of a worker node
 * that admits queued workflow runs. Below the client and the worker, above the store.
 */
@NullMarked
package dev.durable.workflow.internal.queue;

import org.jspecify.annotations.NullMarked;
