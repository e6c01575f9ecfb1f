package dev.durable.workflow.internal.worker;

import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.internal.commit.TaskCommitRepository;
import dev.durable.workflow.internal.store.RunOwnership;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.TaskRepository;
import dev.durable.workflow.internal.versioning.BuildRouter;

/**
 * The stores the workflow tasks of a node read and write: the runs, their ownership,
 * their histories and inputs, and the node's group commit of tasks.
 *
 * @param runs the runs
 * @param ownership which node holds which run, at which epoch
 * @param tasks the histories and inputs a task reads
 * @param commits the node's group commit of workflow tasks
 * @param tx the transactions of the engine's statements
 * @param routing which build the runs a task starts belong to
 */
record TaskStores(RunRepository runs, RunOwnership ownership, TaskRepository tasks, TaskCommitRepository commits,
		TransactionTemplate tx, BuildRouter routing) {
}
