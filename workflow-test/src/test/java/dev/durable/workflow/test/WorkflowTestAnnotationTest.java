package dev.durable.workflow.test;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.fixtures.RealGreeter;
import dev.durable.workflow.test.fixtures.TimeWorkflows;

import static org.assertj.core.api.Assertions.assertThat;

/** Each test gets its own environment: the same workflow id starts in both. */
@WorkflowTest(workflows = TimeWorkflows.Greeting.class, activities = RealGreeter.class)
class WorkflowTestAnnotationTest {

	private final TestWorkflowEnvironment fromConstructor;

	WorkflowTestAnnotationTest(TestWorkflowEnvironment env) {
		this.fromConstructor = env;
	}

	@Test
	void injectsTheEnvironmentItsClientAndItsEngine(TestWorkflowEnvironment env, WorkflowClient client,
			WorkflowEngine engine) {
		assertThat(env).isSameAs(this.fromConstructor);
		assertThat(client).isSameAs(env.client());
		assertThat(engine).isSameAs(env.engine());
		String result = client.start(TimeWorkflows.Greeting::run, "Ada", StartOptions.withId("same-id")).result();
		assertThat(result).isEqualTo("Hello Ada / Hello Ada again");
	}

	@Test
	void testsAreIsolated(TestWorkflowEnvironment env, WorkflowClient client) {
		assertThat(env).isSameAs(this.fromConstructor);
		var start = env.currentTime();
		client.start(TimeWorkflows.Greeting::run, "Bob", StartOptions.withId("same-id")).result();
		assertThat(client.count(null)).isEqualTo(1);
		// the day is skipped; the two greetings' real time counts on the clock too (a few
		// ms)
		assertThat(env.currentTime()).isBetween(start.plus(Duration.ofDays(1)),
				start.plus(Duration.ofDays(1)).plusSeconds(10));
	}

}
