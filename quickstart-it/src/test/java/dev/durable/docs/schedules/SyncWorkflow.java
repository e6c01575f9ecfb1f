package dev.durable.docs.schedules;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** The workflow type the guide's {@code sync} schedules start by name. */
@Workflow("sync")
public class SyncWorkflow {

	@WorkflowRun
	public void run() {
	}

}
