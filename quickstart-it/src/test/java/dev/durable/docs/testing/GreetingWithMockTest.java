package dev.durable.docs.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.durable.docs.workflows.Greeter;
import dev.durable.docs.workflows.GreetingWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.test.TestWorkflowEnvironment;
import dev.durable.workflow.test.WorkflowTestExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

// @formatter:off
// snippet:testing-junit part 2
class GreetingWithMockTest {
  @RegisterExtension
  static final WorkflowTestExtension workflows = WorkflowTestExtension.builder()
      .registerWorkflows(GreetingWorkflow.class)
      .build();

  @Test
  void greetsThroughTheMock(TestWorkflowEnvironment env) {
    Greeter greeter = mock(Greeter.class);          // @Activity interface (or class)
    when(greeter.greet("Ada")).thenReturn("Hi Ada");
    env.registerActivities(greeter);
    assertThat(env.client().start(GreetingWorkflow::run, "Ada", StartOptions.withId("g-1")).result())
        .isEqualTo("Hi Ada!");
    verify(greeter).greet("Ada");                   // called once: scheduled, recorded, never re-run
  }
}
// end-snippet
// @formatter:on
