package dev.durable.docs.testing;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.durable.docs.workflows.Greeter;
import dev.durable.docs.workflows.GreetingWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.test.TestWorkflowEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** The test kit's environment as the testing guide uses it, run. */
class TestKitTest {

	@Test
	void theEnvironmentWithoutJUnit() {
		// @formatter:off
		// snippet:testing-environment
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
		  env.registerWorkflows(GreetingWorkflow.class);
		  env.registerActivities(new Greeter());          // or a Mockito mock of an @Activity interface or class
		  Instant start = env.currentTime();
		  WorkflowHandle<String> handle = env.client().start(GreetingWorkflow::run, "Ada", StartOptions.withId("greet-ada"));
		  assertThat(handle.result()).isEqualTo("Hello Ada!");   // the 3-day timer took milliseconds
		  assertThat(env.currentTime()).isAfterOrEqualTo(start.plus(Duration.ofDays(3)));   // and the activity's real time
		}
		// end-snippet
		// @formatter:on
	}

	@Test
	void aSignalTwoDaysLater() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(ApprovalWorkflow.class);
			ApprovalRequest request = new ApprovalRequest("doc-1");
			Instant start = env.currentTime();
			// @formatter:off
			// snippet:testing-signal-later
			WorkflowHandle<Instant> handle = env.client().start(ApprovalWorkflow::run, request, StartOptions.withId("a-1"));
			env.sleep(Duration.ofDays(2));                    // timers due on the way fire at their own time
			handle.signal(ApprovalWorkflow::approve);
			assertThat(handle.result()).isEqualTo(start.plus(Duration.ofDays(2)));
			// end-snippet
			// @formatter:on
		}
	}

}
