package dev.durable.docs.workflows;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** A child and a scheduled workflow of the guide's examples. */
@Workflow("report")
public class ReportWorkflow {

	@WorkflowRun
	public String run(ReportRequest request) {
		return "report " + request.name();
	}

}
