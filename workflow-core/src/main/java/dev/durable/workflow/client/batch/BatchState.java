package dev.durable.workflow.client.batch;

import dev.durable.workflow.client.WorkflowClient;

/** Where a batch is (see {@link BatchStatus}). */
public enum BatchState {

	/** Pages of matching runs are still being processed. */
	RUNNING,

	/** Every matching run was processed. */
	COMPLETED,

	/**
	 * Stopped by {@link WorkflowClient#cancelBatch}; the runs processed so far keep the
	 * operation.
	 */
	CANCELED,

	/** Stopped because the filter could not be listed (a bad filter value, say). */
	FAILED

}
