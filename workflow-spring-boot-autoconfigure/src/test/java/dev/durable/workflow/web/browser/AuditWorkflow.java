package dev.durable.workflow.web.browser;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** Its workflow task always fails (a bug in workflow code): a stuck run. */
@Workflow("audit")
public class AuditWorkflow {

	@WorkflowRun
	public String run() {
		throw new IllegalStateException("audit rules missing");
	}

}
