package dev.durable.workflow.internal.client;

import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.internal.queue.QueueRepository;
import dev.durable.workflow.internal.store.DedupRepository;
import dev.durable.workflow.internal.store.NodeRepository;
import dev.durable.workflow.internal.store.RunRepository;

/**
 * The stores a start of a run reads and writes.
 *
 * @param runs the runs
 * @param dedup the records of workflow ids already used
 * @param nodes the nodes (which of them runs the run's first task)
 * @param queues the flow-control queues a start may wait in
 * @param tx the transactions of the engine's statements
 */
public record StartStores(RunRepository runs, DedupRepository dedup, NodeRepository nodes, QueueRepository queues,
		TransactionTemplate tx) {
}
