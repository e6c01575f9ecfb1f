package dev.durable.workflow.autoconfigure.replaycheck.v1;

import java.time.Duration;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** The parcel as the running build has it: it waits a day. */
@Workflow("parcel")
public class ParcelWorkflow {

	@WorkflowRun
	public String run() {
		Workflows.sleep(Duration.ofDays(1));
		return "delivered";
	}

}
