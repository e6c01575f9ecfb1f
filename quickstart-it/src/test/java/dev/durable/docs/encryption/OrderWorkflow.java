package dev.durable.docs.encryption;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** The workflow whose exported history the guide replays. */
@Workflow("order")
public class OrderWorkflow {

	@WorkflowRun
	public String run(String orderId) {
		return orderId;
	}

}
