package dev.durable.workflow;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.failure.TerminatedFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The Workflows.* API: timers, await, deterministic values, async fan-out, cancellation,
 * terminate.
 */
class WorkflowApiTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Tasks {

		static final AtomicInteger cleanups = new AtomicInteger();

		public String echo(String value) {
			return value;
		}

		public int square(int value) {
			return value * value;
		}

		public String cleanup(String why) {
			cleanups.incrementAndGet();
			return "cleaned after " + why;
		}

	}

	/** Records deterministic values and time so replay can compare them. */
	@Workflow("deterministic")
	public static class DeterministicWorkflow {

		@WorkflowRun
		public List<String> run() {
			List<String> out = new ArrayList<>();
			Instant start = Workflows.now();
			out.add(String.valueOf(Workflows.random().nextInt(1000)));
			out.add(Workflows.randomUUID().toString());
			out.add(Workflows.sideEffect(String.class, () -> UUID.randomUUID().toString()));
			Workflows.sleep(Duration.ofHours(1));
			out.add(Duration.between(start, Workflows.now()).toString());
			Promise<Void> timer = Workflows.newTimer(Duration.ofMinutes(30));
			timer.get();
			out.add(Duration.between(start, Workflows.now()).toString());
			out.add(String.valueOf(Workflows.info().historyLength() > 0));
			return out;
		}

	}

	/** Fans out activities and races a timer. */
	@Workflow("fan-out")
	public static class FanOutWorkflow {

		private final Tasks tasks;

		public FanOutWorkflow(Tasks tasks) {
			this.tasks = tasks;
		}

		@WorkflowRun
		public String run(int n) {
			List<Promise<Integer>> squares = new ArrayList<>();
			for (int i = 1; i <= n; i++) {
				int value = i;
				squares.add(Workflows.async(() -> this.tasks.square(value)));
			}
			Promise.allOf(squares).get();
			int sum = squares.stream().mapToInt(Promise::get).sum();
			Object first = Promise
				.anyOf(Workflows.async(() -> this.tasks.echo("fast")),
						Workflows.newTimer(Duration.ofDays(1)).thenApply((v) -> "slow"))
				.get();
			return sum + " " + first;
		}

	}

	/** Waits on a condition with and without timeout. */
	@Workflow("awaiting")
	public static class AwaitWorkflow {

		private final Tasks tasks;

		private String value;

		public AwaitWorkflow(Tasks tasks) {
			this.tasks = tasks;
		}

		@WorkflowRun
		public String run() {
			boolean met = Workflows.await(Duration.ofMinutes(10), () -> this.value != null);
			Workflows.async(() -> {
				this.value = this.tasks.echo("set by async");
			});
			Workflows.await(() -> this.value != null);
			boolean metNow = Workflows.await(Duration.ofMinutes(10), () -> this.value != null);
			return met + " " + metNow + " " + this.value;
		}

	}

	/** Sleeps until canceled, then cleans up in a detached scope. */
	@Workflow("cancellable")
	public static class CancellableWorkflow {

		private final Tasks tasks;

		public CancellableWorkflow(Tasks tasks) {
			this.tasks = tasks;
		}

		@WorkflowRun
		public String run(String mode) {
			try {
				if (mode.equals("scope")) {
					CancellationScope scope = Workflows.newCancellationScope(() -> Workflows.sleep(Duration.ofDays(1)));
					Workflows.async(() -> {
						Workflows.sleep(Duration.ofMinutes(1));
						scope.cancel("inner scope canceled");
					});
					try {
						scope.run();
					}
					catch (CanceledFailure ex) {
						return "inner canceled: " + ex.getMessage();
					}
				}
				Workflows.sleep(Duration.ofDays(7));
				return "slept";
			}
			catch (CanceledFailure ex) {
				String[] result = new String[1];
				Workflows.newDetachedCancellationScope(() -> result[0] = this.tasks.cleanup("cancel")).run();
				assertThat(result[0]).isNotNull();
				throw ex;
			}
		}

	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder()
			.register(DeterministicWorkflow.class, FanOutWorkflow.class, AwaitWorkflow.class, CancellableWorkflow.class)
			.registerActivities(new Tasks()));
	}

	@Test
	void timersAndDeterministicValuesReplay() {
		WorkflowEngine engine = engine();
		WorkflowHandle<List<String>> handle = engine.client().start(DeterministicWorkflow::run, StartOptions.DEFAULT);
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		await().until(() -> handle.describe().workflowTasks() == 2);
		this.engines.clock.advance(Duration.ofMinutes(30));
		List<String> out = handle.result(Duration.ofSeconds(10));
		assertThat(out.get(3)).isEqualTo("PT1H");
		assertThat(out.get(4)).isEqualTo("PT1H30M");
		assertThat(out.get(5)).isEqualTo("true");
		assertThat(UUID.fromString(out.get(1)).version()).isEqualTo(4);
		Engines.assertReplays(engine, handle.runId());
		// a second run of the same code draws other random values (seeded by run id)
		WorkflowHandle<List<String>> other = engine.client().start(DeterministicWorkflow::run, StartOptions.DEFAULT);
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(2));
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(2));
		assertThat(other.result(Duration.ofSeconds(10)).subList(1, 3)).doesNotContainAnyElementsOf(out.subList(1, 3));
	}

	@Test
	void asyncFanOutWithAllOfAndAnyOf() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(FanOutWorkflow::run, 10, StartOptions.DEFAULT);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("385 fast");
		Engines.assertReplays(engine, handle.runId());
		List<HistoryEvent> history = handle.history();
		assertThat(history).filteredOn((e) -> e.type().equals("ACTIVITY_SCHEDULED")).hasSize(11);
		assertThat(history).filteredOn((e) -> e.type().equals("TIMER_CANCELED")).isEmpty();
		assertThat(this.engines.count("timer")).as("the losing timer is gone with the closed run").isZero();
	}

	@Test
	void awaitWithAndWithoutTimeout() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(AwaitWorkflow::run, StartOptions.DEFAULT);
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(10));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("false true set by async");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void cancelLetsTheWorkflowCleanUpInADetachedScope() {
		WorkflowEngine engine = engine();
		int before = Tasks.cleanups.get();
		WorkflowHandle<String> handle = engine.client()
			.start(CancellableWorkflow::run, "plain", StartOptions.withId("cancel-me"));
		await().until(() -> this.engines.count("timer") == 1);
		handle.cancel("customer asked");
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies(
					(ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.CANCELED))
			.cause()
			.isInstanceOf(CanceledFailure.class)
			.hasMessage("customer asked");
		assertThat(Tasks.cleanups.get()).isEqualTo(before + 1);
		assertThat(handle.history()).extracting(HistoryEvent::type)
			.containsSubsequence("CANCEL_REQUESTED", "TIMER_CANCELED", "ACTIVITY_SCHEDULED", "ACTIVITY_COMPLETED",
					"WORKFLOW_CANCELED");
		assertThat(this.engines.count("timer")).isZero();
		assertThat(this.engines.count("inbox")).isZero();
		Engines.assertReplays(engine, handle.runId());
		assertThatThrownBy(() -> handle.cancel("again")).isInstanceOf(WorkflowClosedException.class);
	}

	@Test
	void cancelingAnInnerScopeCancelsOnlyItsTimer() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client().start(CancellableWorkflow::run, "scope", StartOptions.DEFAULT);
		await().until(() -> this.engines.count("timer") == 2);
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("inner canceled: inner scope canceled");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void terminateClosesTheRunWithoutRunningCode() {
		WorkflowEngine engine = engine();
		int before = Tasks.cleanups.get();
		WorkflowHandle<String> handle = engine.client()
			.start(CancellableWorkflow::run, "plain", StartOptions.withId("terminate-me"));
		await().until(() -> this.engines.count("timer") == 1);
		handle.terminate("operator stop");
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies(
					(ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.TERMINATED))
			.cause()
			.isInstanceOf(TerminatedFailure.class)
			.hasMessage("operator stop");
		assertThat(Tasks.cleanups.get()).isEqualTo(before);
		WorkflowDescription description = handle.describe();
		assertThat(description.status()).isEqualTo(WorkflowStatus.TERMINATED);
		assertThat(description.closeTime()).isNotNull();
		assertThat(handle.history()).last().extracting(HistoryEvent::type).isEqualTo("WORKFLOW_TERMINATED");
		assertThat(this.engines.count("timer")).isZero();
		assertThatThrownBy(() -> handle.terminate("again")).isInstanceOf(WorkflowClosedException.class);
		// the owner's cached copy is gone and nothing more is written
		this.engines.clock.advance(Duration.ofDays(8));
		await().until(() -> engine.cachedRuns() == 0);
		assertThat(handle.history()).last().extracting(HistoryEvent::type).isEqualTo("WORKFLOW_TERMINATED");
		Engines.assertReplays(engine, handle.runId());
	}

}
