package dev.durable.docs.activities;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** Waits for the approval that {@link ApprovalRequests} asks for. */
@Workflow("approval")
public class ApprovalWorkflow {

	private final ApprovalRequests approvals;

	public ApprovalWorkflow(ApprovalRequests approvals) {
		this.approvals = approvals;
	}

	@WorkflowRun
	public String run(String orderId) {
		return this.approvals.requestApproval(orderId);
	}

}
