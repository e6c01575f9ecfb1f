package dev.durable.workflow;

/**
 * A child workflow did not complete successfully (failed, canceled, terminated, timed out) or
 * could not start because its workflow id is in use; see the cause.
 */
public class ChildWorkflowFailure extends WorkflowException {

	private final String workflowId;

	private final String workflowType;

	public ChildWorkflowFailure(String message, String workflowType, String workflowId, Throwable cause) {
		super(message, cause);
		this.workflowType = workflowType;
		this.workflowId = workflowId;
	}

	public String getWorkflowId() {
		return this.workflowId;
	}

	public String getWorkflowType() {
		return this.workflowType;
	}

}
