package dev.durable.workflow.web.browser;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** A child of {@link FulfillmentWorkflow}. */
@Workflow("packing")
public class PackingWorkflow {

	@WorkflowRun
	public String run(String box) {
		return "packed " + box;
	}

}
