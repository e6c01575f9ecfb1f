package dev.durable.docs.workflows;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** A workflow without input or result, for the guide's children. */
@Workflow("cleanup")
public class CleanupWorkflow {

	@WorkflowRun
	public void run() {
	}

}
