package dev.durable.docs.workflows;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** The workflow the guide lists by search attributes. */
@Workflow("order")
public class OrderWorkflow {

	@WorkflowRun
	public String run(Order order) {
		return order.id();
	}

}
