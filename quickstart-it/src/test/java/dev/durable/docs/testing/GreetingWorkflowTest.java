package dev.durable.docs.testing;

import org.junit.jupiter.api.Test;

import dev.durable.docs.workflows.Greeter;
import dev.durable.docs.workflows.GreetingWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.test.WorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;

// @formatter:off
// snippet:testing-junit part 1
@WorkflowTest(workflows = GreetingWorkflow.class, activities = Greeter.class)
class GreetingWorkflowTest {
  @Test
  void greets(WorkflowClient client) {
    assertThat(client.execute(GreetingWorkflow::run, "Ada", StartOptions.withId("g-1"))).isEqualTo("Hello Ada!");
  }
}
// end-snippet
// @formatter:on
