package dev.durable.workflow.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.test.fixtures.Greeter;
import dev.durable.workflow.test.fixtures.TimeWorkflows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The extension registered programmatically, with a Mockito mock as the activity. */
class WorkflowTestExtensionTest {

	@RegisterExtension
	static final WorkflowTestExtension workflows = WorkflowTestExtension.builder()
		.registerWorkflows(TimeWorkflows.Greeting.class)
		.build();

	@Test
	void aMockOfAnActivityInterfaceAnswersThroughTheEngine(TestWorkflowEnvironment env) {
		Greeter greeter = mock(Greeter.class);
		when(greeter.greet("Ada")).thenReturn("Hi Ada");
		when(greeter.greet("Ada again")).thenReturn("Hi again");
		env.registerActivities(greeter);
		WorkflowHandle<String> handle = env.client()
			.start(TimeWorkflows.Greeting::run, "Ada", StartOptions.withId("mocked"));
		assertThat(handle.result()).isEqualTo("Hi Ada / Hi again");
		verify(greeter).greet("Ada");
		assertThat(handle.history()).extracting(HistoryEvent::type)
			.contains("ACTIVITY_SCHEDULED", "TIMER_STARTED", "TIMER_FIRED", "ACTIVITY_COMPLETED");
	}

	@Test
	void registeringAfterTheStartIsAnError(TestWorkflowEnvironment env) {
		env.registerActivities(mock(Greeter.class));
		env.start();
		assertThatThrownBy(() -> env.registerActivities(mock(Greeter.class))).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("register");
	}

}
