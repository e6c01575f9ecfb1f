package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link WorkflowEngineListener}: the events of runs, workflow tasks and activity
 * attempts, once each and never on replay; a listener that throws breaks nothing.
 */
class WorkflowEngineListenerTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** An activity that fails its first attempt. */
	@Activity
	public interface Chores {

		@ActivityMethod(initialInterval = "PT1S", maxAttempts = 3)
		String retried(String input);

	}

	public static class ChoresImpl implements Chores {

		final AtomicInteger calls = new AtomicInteger();

		@Override
		public String retried(String input) {
			if (this.calls.incrementAndGet() == 1) {
				throw new IllegalStateException("first attempt fails");
			}
			return input + "!";
		}

	}

	@Workflow("listened")
	public static class ListenedWorkflow {

		private final Chores chores;

		public ListenedWorkflow(Chores chores) {
			this.chores = chores;
		}

		@WorkflowRun
		public String run(String input) {
			return this.chores.retried(input);
		}

	}

	/** Fails its workflow task until fixed. */
	@Workflow("listened-buggy")
	public static class BuggyWorkflow {

		static volatile boolean fixed;

		@WorkflowRun
		public String run() {
			if (!fixed) {
				throw new IllegalStateException("bug in workflow code");
			}
			return "fixed";
		}

	}

	/** Writes down every event. */
	static final class Recorder implements WorkflowEngineListener {

		final List<String> events = new CopyOnWriteArrayList<>();

		@Override
		public void runStarted(Run run) {
			this.events.add("runStarted " + run.workflowType() + " " + run.workflowId());
		}

		@Override
		public void runClosed(Run run, WorkflowStatus status) {
			this.events.add("runClosed " + run.workflowType() + " " + status);
		}

		@Override
		public Execution workflowTaskStarted(Run run) {
			this.events.add("task " + run.workflowType());
			return (failure) -> this.events
				.add("taskEnded " + run.workflowType() + " " + ((failure != null) ? "failed" : "ok"));
		}

		@Override
		public Execution activityStarted(ActivityInfo activity, Duration scheduleToStart) {
			this.events.add("activity " + activity.activityType() + " " + activity.attempt());
			return (failure) -> this.events.add("activityEnded " + activity.activityType() + " "
					+ ((failure != null) ? failure.getMessage() : "ok"));
		}

		@Override
		public void activityFailed(ActivityInfo activity, String failureType, boolean retrying) {
			this.events.add("activityFailed " + activity.activityType() + " " + activity.attempt() + " " + failureType
					+ " " + retrying);
		}

		List<String> of(String prefix) {
			return this.events.stream().filter((event) -> event.startsWith(prefix)).toList();
		}

	}

	/** Throws from every method and from every end. */
	static final class Throwing implements WorkflowEngineListener {

		final AtomicInteger calls = new AtomicInteger();

		private RuntimeException fail() {
			this.calls.incrementAndGet();
			return new IllegalStateException("listener bug");
		}

		@Override
		public void runStarted(Run run) {
			throw fail();
		}

		@Override
		public void runClosed(Run run, WorkflowStatus status) {
			throw fail();
		}

		@Override
		public Execution workflowTaskStarted(Run run) {
			return (failure) -> {
				throw fail();
			};
		}

		@Override
		public Execution activityStarted(ActivityInfo activity, Duration scheduleToStart) {
			throw fail();
		}

		@Override
		public void activityFailed(ActivityInfo activity, String failureType, boolean retrying) {
			throw fail();
		}

	}

	@Test
	void reportsRunsTasksAndActivityAttemptsAndAThrowingListenerBreaksNothing() {
		Recorder recorder = new Recorder();
		Throwing throwing = new Throwing();
		ChoresImpl chores = new ChoresImpl();
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(ListenedWorkflow.class)
			.registerActivities(chores)
			.listener(throwing)
			.listener(recorder));
		WorkflowHandle<String> handle = engine.client()
			.start(ListenedWorkflow::run, "done", StartOptions.withId("listened-1"));
		await().until(() -> !recorder.of("activityFailed").isEmpty());
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("done!");
		await().until(() -> !recorder.of("runClosed").isEmpty());
		assertThat(recorder.of("runStarted")).containsExactly("runStarted listened listened-1");
		assertThat(recorder.of("runClosed")).containsExactly("runClosed listened COMPLETED");
		assertThat(recorder.of("activity")).containsExactly("activity retried 1",
				"activityEnded retried first attempt fails",
				"activityFailed retried 1 java.lang.IllegalStateException true", "activity retried 2",
				"activityEnded retried ok");
		// the first task schedules the activity, the second completes the run
		assertThat(recorder.of("task")).containsSubsequence("task listened", "taskEnded listened ok", "task listened",
				"taskEnded listened ok");
		assertThat(throwing.calls).hasValueGreaterThanOrEqualTo(6);

		// a replay (a query, or a run evicted from the cache) reports nothing
		int before = recorder.events.size();
		Engines.assertReplays(engine, handle.runId());
		assertThat(recorder.events).hasSize(before);
	}

	@Test
	void aFailingWorkflowTaskEndsWithItsFailureAndTheRunIsReportedOnceItRecovers() {
		BuggyWorkflow.fixed = false;
		Recorder recorder = new Recorder();
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(BuggyWorkflow.class).listener(recorder));
		WorkflowHandle<String> handle = engine.client().start(BuggyWorkflow::run, StartOptions.withId("buggy-1"));
		await().until(() -> recorder.events.contains("taskEnded listened-buggy failed"));
		assertThat(recorder.of("runStarted")).isEmpty();
		BuggyWorkflow.fixed = true;
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("fixed");
		await().until(() -> !recorder.of("runClosed").isEmpty());
		assertThat(recorder.of("runStarted")).containsExactly("runStarted listened-buggy buggy-1");
		assertThat(recorder.of("runClosed")).containsExactly("runClosed listened-buggy COMPLETED");
	}

	private WorkflowEngine listenedEngine(Recorder recorder) {
		return this.engines.start(this.engines.builder()
			.register(ListenedWorkflow.class)
			.registerActivities(new ChoresImpl())
			.listener(recorder));
	}

	@Test
	void aTerminatedRunIsReportedClosed() {
		Recorder recorder = new Recorder();
		WorkflowEngine engine = listenedEngine(recorder);
		WorkflowHandle<String> handle = engine.client()
			.start(ListenedWorkflow::run, "x", StartOptions.withId("listened-terminated"));
		await().until(() -> !recorder.of("activityFailed").isEmpty());
		handle.terminate("enough");
		await().until(() -> !recorder.of("runClosed").isEmpty());
		assertThat(recorder.of("runClosed")).containsExactly("runClosed listened TERMINATED");
	}

	@Test
	void aResetReportsTheOldRunClosedAndTheNewOneStarted() {
		Recorder recorder = new Recorder();
		WorkflowEngine engine = listenedEngine(recorder);
		WorkflowHandle<String> handle = engine.client()
			.start(ListenedWorkflow::run, "x", StartOptions.withId("listened-reset"));
		await().until(() -> handle.describe().workflowTasks() >= 1);
		handle.reset(handle.history().size(), "again");
		await().until(() -> recorder.of("runStarted").size() == 2);
		// the old run closes first; the new one may complete soon after
		assertThat(recorder.of("runClosed")).startsWith("runClosed listened TERMINATED");
	}

}
