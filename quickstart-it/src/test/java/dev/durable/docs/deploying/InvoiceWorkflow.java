package dev.durable.docs.deploying;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** The deploying guide's pinned workflow: it waits for its invoice to be sent. */
// @formatter:off
// snippet:deploying-pinned
@Workflow(versioning = VersioningBehavior.PINNED)
public class InvoiceWorkflow {
// end-snippet
// @formatter:on

	private boolean sent;

	@WorkflowRun
	public String run(String customer) {
		Workflows.await(() -> this.sent);
		return "invoiced " + customer;
	}

	@SignalMethod
	public void send() {
		this.sent = true;
	}

}
