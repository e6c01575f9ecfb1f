package dev.durable.workflow.activity;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Local activities: run inside the workflow task that calls them, their outcomes
 * committed with it (several in a row cost one commit), read back on replay without
 * running again, retried at once within the task, and run again when the task that ran
 * them did not commit (the weaker guarantee they trade for the saved commits).
 */
class LocalActivityTest {

	static final List<String> EXECUTIONS = new CopyOnWriteArrayList<>();

	static final AtomicInteger FAILURES_LEFT = new AtomicInteger();

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
		EXECUTIONS.clear();
		FAILURES_LEFT.set(0);
	}

	@Activity
	public static class Steps {

		public String step(String input, int number) {
			ActivityInfo info = ActivityContext.current().info();
			EXECUTIONS.add("step" + number + "#" + info.attempt());
			if (FAILURES_LEFT.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
				throw new IllegalStateException("step " + number + " failed");
			}
			return input + "+" + number;
		}

	}

	@Workflow("local-steps")
	public static class LocalSteps {

		@WorkflowRun
		public String run(String input) {
			Steps steps = Workflows.localActivities(Steps.class,
					ActivityOptions.builder().retryPolicy(RetryPolicy.builder().maximumAttempts(3).build()).build());
			String value = input;
			for (int i = 1; i <= 3; i++) {
				value = steps.step(value, i);
			}
			return value;
		}

	}

	@Workflow("local-around-a-timer")
	public static class LocalAroundATimer {

		@WorkflowRun
		public String run(String input) {
			Steps steps = Workflows.localActivities(Steps.class);
			String first = steps.step(input, 1);
			Workflows.sleep(Duration.ofMinutes(1));
			return steps.step(first, 2);
		}

	}

	@Workflow("local-that-fails")
	public static class LocalThatFails {

		@WorkflowRun
		public String run(String input) {
			Steps steps = Workflows.localActivities(Steps.class,
					ActivityOptions.builder().retryPolicy(RetryPolicy.builder().maximumAttempts(2).build()).build());
			try {
				return steps.step(input, 1);
			}
			catch (ActivityFailure ex) {
				return "failed after attempt " + ex.getAttempt() + ": " + ex.getCause().getMessage();
			}
		}

	}

	private WorkflowEngine start(StallingHooks hooks) {
		return this.engines.start(this.engines.builder()
			.register(LocalSteps.class)
			.register(LocalAroundATimer.class)
			.register(LocalThatFails.class)
			.registerActivities(new Steps())
			.hooks(hooks));
	}

	@Test
	void aStartWhoseFirstTaskClosedTheRunAnswersItsResultWithoutReadingTheRun() {
		WorkflowEngine engine = start(new StallingHooks());
		WorkflowHandle<String> handle = engine.client().start(LocalSteps::run, "x", StartOptions.withId("local-read"));
		// the run was closed by the start's own task: its handle has the outcome already,
		// so even
		// with the run's rows gone (as retention would remove them) the result needs no
		// read
		this.engines.jdbc().update("DELETE FROM " + this.engines.schema + ".run_payload");
		this.engines.jdbc().update("DELETE FROM " + this.engines.schema + ".workflow_run");
		assertThat(handle.result(Duration.ofSeconds(5))).isEqualTo("x+1+2+3");
		// a handle by id has no such outcome: it reads, and the run is gone
		assertThatThrownBy(() -> engine.client().handle("local-read").result(Duration.ofSeconds(1)))
			.isInstanceOf(WorkflowNotFoundException.class);
	}

	@Test
	void threeLocalActivitiesCommitWithTheirTaskAsOneHistoryRowAndReplayWithoutRunning() {
		WorkflowEngine engine = start(new StallingHooks());
		WorkflowHandle<String> handle = engine.client().start(LocalSteps::run, "x", StartOptions.withId("local-1"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("x+1+2+3");
		// the start's task ran the three steps and closed the run: one commit, one
		// history row
		assertThat(this.engines.count("history")).isEqualTo(1);
		assertThat(this.engines.count("activity")).isZero();
		assertThat(EXECUTIONS).containsExactly("step1#1", "step2#1", "step3#1");
		Engines.assertReplays(engine, handle.describe().runId());
		assertThat(EXECUTIONS).hasSize(3);
	}

	@Test
	void aFailedAttemptIsRetriedWithinTheTask() {
		FAILURES_LEFT.set(2);
		WorkflowEngine engine = start(new StallingHooks());
		WorkflowHandle<String> handle = engine.client().start(LocalSteps::run, "x", StartOptions.withId("local-2"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("x+1+2+3");
		assertThat(EXECUTIONS).containsExactly("step1#1", "step1#2", "step1#3", "step2#1", "step3#1");
		assertThat(this.engines.count("history")).isEqualTo(1);
	}

	@Test
	void theFinalFailureReachesTheWorkflowAsAnActivityFailureAndReplays() {
		FAILURES_LEFT.set(5);
		WorkflowEngine engine = start(new StallingHooks());
		WorkflowHandle<String> handle = engine.client().start(LocalThatFails::run, "x", StartOptions.withId("local-3"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("failed after attempt 2: step 1 failed");
		assertThat(EXECUTIONS).containsExactly("step1#1", "step1#2");
		Engines.assertReplays(engine, handle.describe().runId());
		assertThat(EXECUTIONS).hasSize(2);
	}

	@Test
	void aTaskThatDidNotCommitRunsItsLocalActivitiesAgain() {
		StallingHooks hooks = new StallingHooks();
		// the task after the timer fails to commit, as if the connection dropped
		hooks.failCommitNumber = 2;
		WorkflowEngine engine = start(hooks);
		WorkflowHandle<String> handle = engine.client()
			.start(LocalAroundATimer::run, "x", StartOptions.withId("local-4"));
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("x+1+2");
		// step 1 committed with the start; step 2 ran in the task that failed and in its
		// retry
		assertThat(EXECUTIONS).containsExactly("step1#1", "step2#1", "step2#1");
		Engines.assertReplays(engine, handle.describe().runId());
	}

	@Test
	void aCommittedLocalActivityDoesNotRunAgainOnAnotherNode() {
		WorkflowEngine first = start(new StallingHooks());
		WorkflowHandle<String> handle = first.client()
			.start(LocalAroundATimer::run, "x", StartOptions.withId("local-5"));
		org.awaitility.Awaitility.await().until(() -> this.engines.count("history") == 1);
		first.shutdown();
		WorkflowEngine second = start(new StallingHooks());
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(second.client().handle("local-5", String.class).result(Duration.ofSeconds(20))).isEqualTo("x+1+2");
		assertThat(EXECUTIONS).containsExactly("step1#1", "step2#1");
		Engines.assertReplays(second, handle.describe().runId());
	}

}
