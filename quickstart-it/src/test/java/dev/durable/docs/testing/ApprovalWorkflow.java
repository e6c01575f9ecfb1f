package dev.durable.docs.testing;

import java.time.Instant;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** Waits for its approval and returns when it came. */
@Workflow("approval")
public class ApprovalWorkflow {

	private boolean approved;

	@WorkflowRun
	public Instant run(ApprovalRequest request) {
		Workflows.await(() -> this.approved);
		return Workflows.now();
	}

	@SignalMethod
	public void approve() {
		this.approved = true;
	}

}
