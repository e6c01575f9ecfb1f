package dev.durable.workflow.autoconfigure.replaycheck.v2;

import java.time.Duration;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * The parcel of a new build that prints a label first, without a version: runs of the old
 * build do not replay on it.
 */
@Workflow("parcel")
public class ParcelWorkflow {

	@WorkflowRun
	public String run() {
		Workflows.sideEffect(String.class, () -> "label printed");
		Workflows.sleep(Duration.ofDays(1));
		return "delivered";
	}

}
