package dev.durable.workflow;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

class SmokeTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Greeter {

		public String greet(String name) {
			return "Hello " + name;
		}

	}

	@Workflow("greeting")
	public static class GreetingWorkflow {

		private final Greeter greeter;

		public GreetingWorkflow(Greeter greeter) {
			this.greeter = greeter;
		}

		@WorkflowRun
		public String run(String name) {
			String first = this.greeter.greet(name);
			Workflows.sleep(Duration.ofMinutes(5));
			return first + " and " + this.greeter.greet(name.toUpperCase()) + "!";
		}

	}

	@Test
	void runsAWorkflowWithActivitiesAndATimer() {
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(GreetingWorkflow.class).registerActivities(new Greeter()));
		WorkflowHandle<String> handle = engine.client()
			.start(GreetingWorkflow::run, "ada", StartOptions.withId("greet-1"));
		org.awaitility.Awaitility.await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(5));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("Hello ada and Hello ADA!");
		Engines.assertReplays(engine, handle.runId());
		assertThat(handle.history()).extracting("type")
			.contains("WORKFLOW_STARTED", "ACTIVITY_SCHEDULED", "TIMER_STARTED", "TIMER_FIRED", "WORKFLOW_COMPLETED");
	}

}
