package dev.durable.docs.schedules;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;

/** The workflow of the guide's nightly schedule. */
@Workflow("report")
public class ReportWorkflow {

	@WorkflowRun
	public String run(ReportRequest request) {
		return "report " + request.name();
	}

}
