package dev.durable.docs.workflows;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** A workflow with an input and no result, for the guide's children. */
@Workflow("audit")
public class AuditWorkflow {

	@WorkflowRun
	public void run(AuditEntry entry) {
	}

}
