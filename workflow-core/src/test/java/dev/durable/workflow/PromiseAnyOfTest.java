package dev.durable.workflow;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Promise#anyOf} keeps the value type: no cast in workflow code; the race replays.
 */
class PromiseAnyOfTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Tasks {

		public String echo(String value) {
			return value;
		}

		public int square(int value) {
			return value * value;
		}

		public long twice(long value) {
			return 2 * value;
		}

	}

	/**
	 * Races activities against day-long timers with each overload; the activities win.
	 */
	@Workflow("any-of")
	public static class RaceWorkflow {

		private final Tasks tasks;

		public RaceWorkflow(Tasks tasks) {
			this.tasks = tasks;
		}

		@WorkflowRun
		public String run() {
			Promise<String> slow = Workflows.newTimer(Duration.ofDays(1)).thenApply((v) -> "slow");
			// typed: the value needs no cast
			String text = Promise.anyOf(Workflows.async(() -> this.tasks.echo("fast")), slow).get();
			List<Promise<Integer>> squares = List.of(Workflows.newTimer(Duration.ofDays(1)).thenApply((v) -> 1),
					Workflows.async(() -> this.tasks.square(3)));
			int square = Promise.anyOf(squares).get();
			// promises of different types: the common supertype
			Number number = Promise
				.anyOf(Workflows.newTimer(Duration.ofDays(2)).thenApply((v) -> 0),
						Workflows.async(() -> this.tasks.twice(21L)))
				.get();
			String failure;
			try {
				failure = Promise.anyOf(Workflows.async(this::boom), slow).get();
			}
			catch (RuntimeException ex) {
				failure = "failed: " + ex.getMessage();
			}
			return text + " " + square + " " + number + " " + failure;
		}

		private String boom() {
			this.tasks.echo("before boom");
			throw new IllegalStateException("boom");
		}

	}

	@Test
	void typedAnyOfReturnsTheFirstCompletedValueAndReplays() {
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(RaceWorkflow.class).registerActivities(new Tasks()));
		WorkflowHandle<String> handle = engine.client().start(RaceWorkflow::run, StartOptions.DEFAULT);
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("fast 9 42 failed: boom");
		Engines.assertReplays(engine, handle.runId());
	}

}
