package dev.durable.docs.events;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.WorkflowStream;
import dev.durable.workflow.Workflows;

// @formatter:off
// snippet:events-and-streams part 1
@Workflow(value = "report", receives = "approve")
public class ReportWorkflow {
  private final ReportActivities activities;
  public ReportWorkflow(ReportActivities activities) { this.activities = activities; }

  @WorkflowRun
  public String run(ReportRequest request) {
    WorkflowStream progress = Workflows.stream("progress");
    for (String part : request.parts()) {
      activities.render(part);
      progress.write(new Progress(part, Workflows.now()));  // offset 0, 1, 2, ...
    }
    progress.close();                                       // readers stop after the last value
    Workflows.setEvent("status", "waiting-for-approval");
    Workflows.receive("approve", String.class);
    Workflows.setEvent("status", "approved");               // replaces the value
    return "done";
  }
}
// end-snippet
// @formatter:on
