package dev.durable.workflow.child;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.ChildHandle;
import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Children whose run methods return nothing or take no input: every overload of
 * startChild and executeChild.
 */
class ChildOverloadsTest {

	private final Engines engines = new Engines();

	static final List<String> DONE = new CopyOnWriteArrayList<>();

	@BeforeEach
	void reset() {
		DONE.clear();
	}

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Recorder {

		public void record(String what) {
			DONE.add(what);
		}

	}

	@Workflow("void-child")
	public static class VoidChild {

		private final Recorder recorder;

		public VoidChild(Recorder recorder) {
			this.recorder = recorder;
		}

		@WorkflowRun
		public void run(String what) {
			this.recorder.record(what);
		}

	}

	@Workflow("no-input-child")
	public static class NoInputChild {

		@WorkflowRun
		public String run() {
			return "no input";
		}

	}

	@Workflow("no-input-void-child")
	public static class NoInputVoidChild {

		private final Recorder recorder;

		public NoInputVoidChild(Recorder recorder) {
			this.recorder = recorder;
		}

		@WorkflowRun
		public void run() {
			this.recorder.record("nothing at all");
		}

	}

	@Workflow("overloads-parent")
	public static class OverloadsParent {

		@WorkflowRun
		public String run(String id) {
			Workflows.executeChild(VoidChild::run, "void with input", ChildOptions.withId(id + "-a"));
			Workflows.executeChild(NoInputVoidChild::run, ChildOptions.withId(id + "-b"));
			String noInput = Workflows.executeChild(NoInputChild::run, ChildOptions.withId(id + "-c"));
			ChildHandle<Void> started = Workflows.startChild(VoidChild::run, "started", ChildOptions.withId(id + "-d"));
			ChildHandle<Void> startedNoInput = Workflows.startChild(NoInputVoidChild::run,
					ChildOptions.withId(id + "-e"));
			started.result().get();
			startedNoInput.result().get();
			return noInput;
		}

	}

	@Test
	void everyOverloadRunsItsChild() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(OverloadsParent.class, VoidChild.class, NoInputChild.class, NoInputVoidChild.class)
			.registerActivities(new Recorder()));
		WorkflowHandle<String> handle = engine.client().start(OverloadsParent::run, "p", StartOptions.withId("p"));
		assertThat(handle.result(Duration.ofSeconds(30))).isEqualTo("no input");
		assertThat(DONE).containsExactlyInAnyOrder("void with input", "nothing at all", "started", "nothing at all");
		Engines.assertReplays(engine, handle.runId());
	}

}
