package dev.durable.docs.workflows;

import dev.durable.workflow.Signal;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

// @formatter:off
// snippet:workflows-receive part 1
@Workflow(value = "expense", receives = "comment")
public class ExpenseWorkflow {
  public static final Signal<Decision> DECISION = Signal.of("decision", Decision.class);

  @WorkflowRun
  public String run(Expense expense) {
    String comment = Workflows.receive("comment", String.class);
    Decision decision = Workflows.receive(DECISION);       // or receive(DECISION, timeout)
    return decision + ", " + comment;
  }
}
// end-snippet
// @formatter:on
