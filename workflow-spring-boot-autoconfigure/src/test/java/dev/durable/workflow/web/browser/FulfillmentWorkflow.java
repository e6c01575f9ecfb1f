package dev.durable.workflow.web.browser;

import java.time.Duration;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * Packs two parcels as child runs, then continues as new until its last round, which
 * waits.
 */
@Workflow("fulfillment")
public class FulfillmentWorkflow {

	@WorkflowRun
	public String run(int round) {
		String first = Workflows.executeChild(PackingWorkflow::run, "box-" + round + "a", null);
		String second = Workflows.executeChild(PackingWorkflow::run, "box-" + round + "b", null);
		if (round < 2) {
			Workflows.continueAsNew(round + 1);
		}
		Workflows.sleep(Duration.ofHours(2));
		return first + ", " + second;
	}

}
