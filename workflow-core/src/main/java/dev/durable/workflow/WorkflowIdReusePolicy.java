package dev.durable.workflow;

/**
 * Whether a workflow id may start a new run when earlier runs with that id are closed.
 */
public enum WorkflowIdReusePolicy {

	/** Always allowed (the default). */
	ALLOW_DUPLICATE,
	/** Allowed only when the latest run did not complete successfully. */
	ALLOW_DUPLICATE_FAILED_ONLY,
	/** Never allowed: the id is used once. */
	REJECT_DUPLICATE,
	/** Allowed; an open run with the id is terminated first. */
	TERMINATE_IF_RUNNING

}
