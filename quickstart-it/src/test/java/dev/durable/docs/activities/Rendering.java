package dev.durable.docs.activities;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;

// @formatter:off
// snippet:activities-task-queues part 1
@Activity
public interface Rendering {
  @ActivityMethod(taskQueue = "gpu", startToCloseTimeout = "PT10M", heartbeatTimeout = "PT30S",
      scheduleToStartTimeout = "PT5M")
  String render(String scene);
}
// end-snippet
// @formatter:on
