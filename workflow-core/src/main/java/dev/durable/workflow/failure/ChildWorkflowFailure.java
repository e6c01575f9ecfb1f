package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

/**
 * A child workflow did not complete successfully (failed, canceled, terminated, timed
 * out) or could not start because its workflow id is in use; see the cause.
 */
public class ChildWorkflowFailure extends WorkflowException {

	private final String workflowId;

	private final String workflowType;

	/**
	 * @param message the message
	 * @param workflowType the child's workflow type
	 * @param workflowId the child's workflow id
	 * @param cause how the child closed, or {@code null}
	 */
	public ChildWorkflowFailure(String message, String workflowType, String workflowId, @Nullable Throwable cause) {
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
