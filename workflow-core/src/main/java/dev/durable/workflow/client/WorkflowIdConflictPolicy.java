package dev.durable.workflow.client;

/** What a start does when a run with the same workflow id is open. */
public enum WorkflowIdConflictPolicy {

	/** Fail with {@link WorkflowAlreadyStartedException} (the default). */
	FAIL,
	/** Return a handle to the open run instead of starting. */
	USE_EXISTING,
	/** Terminate the open run, then start. */
	TERMINATE_EXISTING

}
