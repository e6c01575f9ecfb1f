package dev.durable.docs.testing.boot;

import java.time.Duration;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/** Reminds after 48 hours. */
@Workflow("reminder")
public class ReminderWorkflow {

	@WorkflowRun
	public String run(String name) {
		Workflows.sleep(Duration.ofHours(48));
		return "reminded " + name + " at " + Workflows.now();
	}

}
