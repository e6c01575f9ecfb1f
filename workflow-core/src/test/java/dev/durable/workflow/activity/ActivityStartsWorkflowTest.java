package dev.durable.workflow.activity;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An activity that starts another workflow on the same node and waits for its result. The
 * engine runs an activity's outcome's task, and a task's activity, on the thread that
 * made them runnable; work the activity's own code causes (here the inner workflow's
 * first activity, scheduled by its eager start) must not wait for that thread, which is
 * blocked in the activity.
 */
class ActivityStartsWorkflowTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public interface Outer {

		String startAndWait(String name);

	}

	@Activity
	public interface Inner {

		String greet(String name);

	}

	public static class OuterImpl implements Outer {

		volatile WorkflowClient client;

		@Override
		public String startAndWait(String name) {
			WorkflowHandle<String> inner = this.client.start(InnerWorkflow::run, name,
					StartOptions.withId("inner-" + name));
			return "outer got " + inner.result(Duration.ofSeconds(20));
		}

	}

	public static class InnerImpl implements Inner {

		@Override
		public String greet(String name) {
			return "hello " + name;
		}

	}

	@Workflow("outer-workflow")
	public static class OuterWorkflow {

		private final Outer outer;

		public OuterWorkflow(Outer outer) {
			this.outer = outer;
		}

		@WorkflowRun
		public String run(String name) {
			return this.outer.startAndWait(name);
		}

	}

	@Workflow("inner-workflow")
	public static class InnerWorkflow {

		private final Inner inner;

		public InnerWorkflow(Inner inner) {
			this.inner = inner;
		}

		@WorkflowRun
		public String run(String name) {
			return this.inner.greet(name);
		}

	}

	@Test
	void anActivityThatStartsAWorkflowAndWaitsForItFinishes() {
		OuterImpl outer = new OuterImpl();
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(OuterWorkflow.class, InnerWorkflow.class)
			.registerActivities(outer, new InnerImpl()));
		outer.client = engine.client();
		WorkflowHandle<String> handle = engine.client().start(OuterWorkflow::run, "ada", StartOptions.withId("outer"));
		assertThat(handle.result(Duration.ofSeconds(30))).isEqualTo("outer got hello ada");
		Engines.assertReplays(engine, handle.runId());
		Engines.assertReplays(engine, engine.client().handle("inner-ada").runId());
	}

}
