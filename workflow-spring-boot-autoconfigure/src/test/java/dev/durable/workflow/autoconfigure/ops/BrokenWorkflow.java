package dev.durable.workflow.autoconfigure.ops;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** Its workflow task always fails: a bug in workflow code. */
@Workflow("ops-broken")
public class BrokenWorkflow {

	@WorkflowRun
	public String run() {
		throw new IllegalStateException("broken on purpose");
	}

}
