package dev.durable.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Saga}: order, parallelism, failing compensations, activities in compensations,
 * replay.
 */
class SagaTest {

	private final Engines engines = new Engines();

	@BeforeEach
	void clearLog() {
		Steps.undone.clear();
	}

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Steps {

		static final Queue<String> undone = new ConcurrentLinkedQueue<>();

		/** Undoes a step; a step named "fail..." cannot be undone. */
		public String undo(String step) {
			if (step.startsWith("fail")) {
				throw ApplicationFailure.newNonRetryableFailure("cannot undo " + step, "Undo");
			}
			undone.add(step);
			return "undone " + step;
		}

		public void undoBoth(String first, String second) {
			undone.add(first + "+" + second);
		}

	}

	/**
	 * Registers a compensation per step named in the plan ("local:x" runs in workflow
	 * code only), compensates with the options the plan starts with ("seq"/"par",
	 * "stop"/"continue"), and returns what ran in workflow code, in order, and how the
	 * saga failed.
	 */
	@Workflow("saga")
	public static class SagaWorkflow {

		private final List<String> log = new ArrayList<>();

		private Steps steps;

		@WorkflowRun
		public String run(String plan) {
			this.steps = Workflows.activities(Steps.class, ActivityOptions.DEFAULT);
			List<String> words = Arrays.asList(plan.split(" "));
			Saga saga = new Saga(new Saga.Options(words.get(0).equals("par"), words.get(1).equals("continue")));
			for (String step : words.subList(2, words.size())) {
				if (step.startsWith("local:")) {
					saga.addCompensation(() -> this.log.add(step));
				}
				else if (step.contains("+")) {
					String[] pair = step.split("\\+");
					saga.addCompensation(this::undoBoth, pair[0], pair[1]);
				}
				else {
					saga.addCompensation(this::undo, step);
				}
			}
			String outcome = "ok";
			try {
				saga.compensate();
			}
			catch (Saga.CompensationException ex) {
				// the activity failure wraps the activity's own exception
				outcome = ex.getCause().getCause().getMessage() + " suppressed " + ex.getSuppressed().length;
			}
			return String.join(",", this.log) + " | " + outcome;
		}

		private void undo(String step) {
			this.log.add("start " + step);
			try {
				this.steps.undo(step);
			}
			finally {
				this.log.add("end " + step);
			}
		}

		private void undoBoth(String first, String second) {
			this.steps.undoBoth(first, second);
			this.log.add(first + "+" + second);
		}

	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder().register(SagaWorkflow.class).registerActivities(new Steps()));
	}

	private String run(WorkflowEngine engine, String plan) {
		WorkflowHandle<String> handle = engine.client().start(SagaWorkflow::run, plan, StartOptions.DEFAULT);
		String result = handle.result(Duration.ofSeconds(20));
		Engines.assertReplays(engine, handle.runId());
		return result;
	}

	@Test
	void sequentialRunsTheCompensationsLastAddedFirstAndReplays() {
		String result = run(engine(), "seq stop a local:b c+d e");
		assertThat(result).isEqualTo("start e,end e,c+d,local:b,start a,end a | ok");
		assertThat(Steps.undone).containsExactly("e", "c+d", "a");
	}

	@Test
	void parallelStartsEveryCompensationBeforeAnyActivityReturns() {
		String result = run(engine(), "par stop a b c");
		// each compensation blocks on its activity, so all three start before the first
		// ends
		assertThat(result.substring(0, result.indexOf(" | ")).split(",")).startsWith("start c", "start b", "start a")
			.containsOnlyOnce("end a", "end b", "end c");
		assertThat(result).endsWith("| ok");
		assertThat(Steps.undone).containsExactlyInAnyOrder("a", "b", "c");
	}

	@Test
	void aFailingCompensationStopsTheRestWithoutContinueWithError() {
		String result = run(engine(), "seq stop a fail1 c");
		assertThat(result).startsWith("start c,end c,start fail1,end fail1 | ");
		assertThat(result).endsWith("| cannot undo fail1 suppressed 0").doesNotContain("start a");
		assertThat(Steps.undone).containsExactly("c");
	}

	@Test
	void continueWithErrorRunsTheRestAndSuppressesTheLaterFailures() {
		String result = run(engine(), "seq continue a fail1 fail2 c");
		assertThat(result).startsWith("start c,end c,start fail2,end fail2,start fail1,end fail1,start a,end a | ")
			.endsWith("| cannot undo fail2 suppressed 1");
		assertThat(Steps.undone).containsExactly("c", "a");
	}

	@Test
	void parallelWithContinueWithErrorWaitsForAllAndReportsEveryFailure() {
		String result = run(engine(), "par continue a fail1 fail2 c");
		assertThat(result).contains("end a", "end c").endsWith("| cannot undo fail2 suppressed 1");
		assertThat(Steps.undone).containsExactlyInAnyOrder("a", "c");
	}

	@Test
	void parallelWithoutContinueWithErrorFailsOnTheFirstFailure() {
		String result = run(engine(), "par stop a fail1");
		assertThat(result).startsWith("start fail1,start a,").endsWith("| cannot undo fail1 suppressed 0");
	}

}
