package dev.durable.workflow.run;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Continue-as-new: same workflow id, new run, fresh history, state carried as the input.
 */
class ContinueAsNewTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Work {

		public int add(int a, int b) {
			return a + b;
		}

	}

	public record Progress(int round, int total, List<String> items) {
	}

	/**
	 * Adds its round to the total, takes one buffered item per run, continues until round
	 * 3.
	 */
	@Workflow(value = "rounds", receives = { "item" })
	public static class Rounds {

		private final Work work;

		public Rounds(Work work) {
			this.work = work;
		}

		@WorkflowRun
		public Progress run(Progress progress) {
			int total = this.work.add(progress.total(), progress.round());
			List<String> items = new ArrayList<>(progress.items());
			items.add(Workflows.receive("item", String.class));
			if (progress.round() == 3) {
				return new Progress(progress.round(), total, items);
			}
			Workflows.continueAsNew(new Progress(progress.round() + 1, total, items));
			throw new IllegalStateException("continueAsNew returned");
		}

	}

	/** Works until the engine suggests continue-as-new, or forever. */
	@Workflow("busy")
	public static class Busy {

		private final Work work;

		public Busy(Work work) {
			this.work = work;
		}

		@WorkflowRun
		public int run(int generation) {
			int sum = 0;
			while (generation > 0 && !Workflows.info().continueAsNewSuggested() || generation < 0) {
				sum = this.work.add(sum, 1);
			}
			if (generation >= 3) {
				return generation;
			}
			Workflows.continueAsNew(generation + 1);
			return -1;
		}

	}

	/** Keeps a goal that updates change; drains its handlers before continuing as new. */
	@Workflow("draining")
	public static class Draining {

		private final Work work;

		private String goal;

		private boolean next;

		public Draining(Work work) {
			this.work = work;
		}

		@WorkflowRun
		public String run(String goal) {
			if (this.goal == null) {
				this.goal = goal;
			}
			Workflows.await(() -> this.next);
			Workflows.await(Workflows::allHandlersFinished);
			if (this.goal.startsWith("final")) {
				return this.goal;
			}
			Workflows.continueAsNew(this.goal);
			return null;
		}

		@UpdateMethod
		public String changeGoal(String goal) {
			this.next = true;
			int length = this.work.add(goal.length(), 0); // the handler blocks on an
															// activity
			this.goal = goal + ":" + length;
			return this.goal;
		}

	}

	@Test
	void drainsHandlersBeforeContinuingAsNew() {
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(Draining.class).registerActivities(new Work()));
		WorkflowHandle<String> handle = engine.client().start(Draining::run, "start", StartOptions.withId("draining"));
		// the update makes the main method move on while its handler still waits for the
		// activity:
		// the main method waits for it, so the update completes in the first run and its
		// goal carries over
		assertThat(handle.update(Draining::changeGoal, "first")).isEqualTo("first:5");
		assertThat(engine.client().handle("draining").update("changeGoal", "final", String.class)).isEqualTo("final:5");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("final:5");
		List<java.util.Map<String, Object>> runs = this.engines.jdbc()
			.queryForList("SELECT run_id, unfinished_handlers FROM " + this.engines.schema
					+ ".workflow_run WHERE workflow_id = 'draining' ORDER BY created_at, run_id");
		assertThat(runs).hasSize(2).allSatisfy((r) -> assertThat(r.get("unfinished_handlers")).isEqualTo(0));
		runs.forEach((r) -> Engines.assertReplays(engine, (java.util.UUID) r.get("run_id")));
	}

	@Test
	void continuesWithTheStateAndTheUnreceivedSignals() {
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(Rounds.class, Draining.class).registerActivities(new Work()));
		WorkflowHandle<Progress> handle = engine.client()
			.signalWithStart(Rounds::run, new Progress(1, 0, List.of()), StartOptions.withId("rounds"), "item", "a");
		handle.signal("item", "b");
		handle.signal("item", "c");
		Progress result = handle.result(Duration.ofSeconds(20));
		assertThat(result).isEqualTo(new Progress(3, 6, List.of("a", "b", "c")));
		// three runs of one workflow id, each with its own short history
		List<java.util.Map<String, Object>> runs = this.engines.jdbc()
			.queryForList("SELECT run_id, status FROM " + this.engines.schema
					+ ".workflow_run WHERE workflow_id = 'rounds' ORDER BY created_at, run_id");
		assertThat(runs).extracting((r) -> r.get("status"))
			.containsExactly("CONTINUED_AS_NEW", "CONTINUED_AS_NEW", "COMPLETED");
		assertThat(engine.client().handle("rounds").describe().status()).isEqualTo(WorkflowStatus.COMPLETED);
		for (java.util.Map<String, Object> run : runs) {
			java.util.UUID runId = (java.util.UUID) run.get("run_id");
			List<HistoryEvent> history = engine.client().handle("rounds", runId).history();
			assertThat(history.get(0).type()).isEqualTo("WORKFLOW_STARTED");
			assertThat(history).hasSizeLessThan(12);
			Engines.assertReplays(engine, runId);
		}
	}

	@Test
	void continuesWhenTheEngineSuggestsItAndTerminatesPastTheHardLimit() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(Busy.class)
			.registerActivities(new Work())
			.historyLimits(20, 1 << 20, 60, 8 << 20));
		WorkflowHandle<Integer> suggested = engine.client().start(Busy::run, 1, StartOptions.withId("busy"));
		assertThat(suggested.result(Duration.ofSeconds(30))).isEqualTo(3);
		assertThat(this.engines.jdbc()
			.queryForObject(
					"SELECT count(*) FROM " + this.engines.schema
							+ ".workflow_run WHERE workflow_id = 'busy' AND status = 'CONTINUED_AS_NEW'",
					Integer.class))
			.isEqualTo(2);

		WorkflowHandle<Integer> runaway = engine.client().start(Busy::run, -1, StartOptions.withId("runaway"));
		assertThatThrownBy(() -> runaway.result(Duration.ofSeconds(30))).isInstanceOf(WorkflowFailedException.class)
			.satisfies(
					(ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.TERMINATED))
			.cause()
			.hasMessageContaining("exceeds the limit of 60 events");
		await().until(() -> engine.cachedRuns() == 0);
	}

}
