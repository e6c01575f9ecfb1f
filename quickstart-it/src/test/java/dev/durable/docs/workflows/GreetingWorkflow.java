package dev.durable.docs.workflows;

import java.time.Duration;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

// @formatter:off
// snippet:workflows-greeting part 1
@Workflow("greeting")                       // the type name; defaults to the class's simple name
public class GreetingWorkflow {
  private final Greeter greeter;            // an @Activity bean: calls from workflow code are durable

  public GreetingWorkflow(Greeter greeter) { this.greeter = greeter; }

  @WorkflowRun
  public String run(String name) {
    String hello = greeter.greet(name);     // scheduled, recorded, retried; never re-run on replay
    Workflows.sleep(Duration.ofDays(3));    // a durable timer: survives restarts
    return hello + "!";
  }
}
// end-snippet
// @formatter:on
