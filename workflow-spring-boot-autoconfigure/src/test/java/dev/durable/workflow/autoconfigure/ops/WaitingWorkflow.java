package dev.durable.workflow.autoconfigure.ops;

import java.time.Duration;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

@Workflow("ops-waiting")
public class WaitingWorkflow {

	@WorkflowRun
	public String run() {
		Workflows.sleep(Duration.ofDays(1));
		return "woke";
	}

}
