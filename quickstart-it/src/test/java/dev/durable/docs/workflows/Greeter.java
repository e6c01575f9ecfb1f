package dev.durable.docs.workflows;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;

// @formatter:off
// snippet:workflows-greeting part 2
@Activity
public class Greeter {
  @ActivityMethod(startToCloseTimeout = "PT30S", maxAttempts = 5)
  public String greet(String name) { return "Hello " + name; }
}
// end-snippet
// @formatter:on
