package dev.durable.workflow.client;

/**
 * A workflow-task boundary named without an event id, resolved per run from its history:
 * what a batch reset takes, and {@link WorkflowHandle#reset(ResetPoint, String)}.
 */
public enum ResetPoint {

	/** The first workflow task: the run starts over with its original input. */
	FIRST_WORKFLOW_TASK,

	/**
	 * The last workflow task written by workflow code (a terminate or a timeout is not
	 * one): that task runs again with the current code, e.g. after a fix for a task that
	 * kept failing.
	 */
	LAST_WORKFLOW_TASK

}
