package dev.durable.docs.workflows;

import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.UpdateValidator;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowInit;
import dev.durable.workflow.WorkflowLock;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

@SuppressWarnings("checkstyle:NeedBraces")
// @formatter:off
// snippet:workflows-signals-queries-updates
@Workflow("agent-run")
public class AgentRun {
  private String goal;
  private boolean paused;
  private final List<String> context = new ArrayList<>();
  private final WorkflowLock lock = Workflows.newLock();

  @WorkflowInit public void init(AgentInput input) { goal = input.goal(); }   // runs before any handler

  @WorkflowRun
  public String run(AgentInput input) {
    for (int step = 0; step < 10; step++) {
      Workflows.await(() -> !paused);                       // a paused run holds no thread
      // ... one step towards the goal (activities)
    }
    Workflows.await(Workflows::allHandlersFinished);        // drain handlers before returning
    return goal;
  }

  @SignalMethod public void pause() { paused = true; }     // asynchronous write
  @SignalMethod public void resume() { paused = false; }
  @SignalMethod public void injectContext(String note) { context.add(note); }
  @QueryMethod public Status status() { return new Status(goal, paused); }   // read, records nothing

  @UpdateMethod                                             // synchronous, tracked write
  public String changeGoal(String newGoal) {
    lock.lock();                                            // serialize blocking handlers
    try { goal = newGoal; return goal; } finally { lock.unlock(); }
  }

  @UpdateValidator(update = "changeGoal")                   // rejection leaves no event
  public void validateChangeGoal(String newGoal) {
    if (newGoal.isBlank()) throw new IllegalArgumentException("goal must not be empty");
  }
}
// end-snippet
// @formatter:on
