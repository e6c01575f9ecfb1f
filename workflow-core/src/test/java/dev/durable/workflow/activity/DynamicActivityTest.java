package dev.durable.workflow.activity;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.payload.EncodedValue;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code @Activity(dynamic = true)} runs every activity type no named activity has. */
class DynamicActivityTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Named {

		public String shout(String text) {
			return text.toUpperCase();
		}

	}

	/** Gets the type name and the arguments as sent. */
	@Activity(dynamic = true)
	public static class Fallback {

		public Object handle(String activityType, EncodedValue[] arguments) {
			return activityType + ":" + arguments[0].get(String.class) + ":" + arguments[1].get(Integer.class) + ":"
					+ arguments.length;
		}

	}

	@Workflow("calls-any")
	public static class CallsAnyWorkflow {

		@WorkflowRun
		public String run(String queue) {
			ActivityOptions options = ActivityOptions.builder().taskQueue(queue.isEmpty() ? null : queue).build();
			String dynamic = Workflows.activity("translate", options).execute(String.class, "hello", 2);
			String named = Workflows.activity("shout", ActivityOptions.DEFAULT).execute(String.class, "hi");
			return dynamic + " " + named;
		}

	}

	@Test
	void anUnknownActivityTypeRunsTheDynamicActivity() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(CallsAnyWorkflow.class)
			.registerActivities(new Named(), new Fallback()));
		WorkflowHandle<String> handle = engine.client()
			.start(CallsAnyWorkflow::run, "", StartOptions.withId("dyn-act-1"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("translate:hello:2:2 HI");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aWorkerWithADynamicActivityClaimsAnyTypeOfItsQueue() {
		WorkflowEngine workflows = this.engines
			.start(this.engines.builder().register(CallsAnyWorkflow.class).registerActivities(new Named()));
		this.engines.start(this.engines.builder()
			.runWorkflows(false)
			.activityTaskQueues("any")
			.registerActivities(new Fallback()));
		WorkflowHandle<String> handle = workflows.client()
			.start(CallsAnyWorkflow::run, "any", StartOptions.withId("dyn-act-2"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("translate:hello:2:2 HI");
	}

	@Activity(dynamic = true)
	public static class BadDynamic {

		public Object handle(String activityType, String argument) {
			return null;
		}

	}

	@Test
	void aDynamicActivityTakesTheTypeNameAndTheArguments() {
		assertThatThrownBy(() -> this.engines.builder().registerActivities(new BadDynamic()).build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("EncodedValue[]");
	}

}
