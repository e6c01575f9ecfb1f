package dev.durable.workflow.engine;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@link WorkflowEngine#stats}: counts, backlog, failing and stuck runs, nodes. */
class EngineStatsTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Workflow("stats-quick")
	public static class QuickWorkflow {

		@WorkflowRun
		public String run(String input) {
			return input;
		}

	}

	@Workflow("stats-waiting")
	public static class WaitingWorkflow {

		@WorkflowRun
		public String run() {
			Workflows.sleep(Duration.ofDays(1));
			return "woke";
		}

	}

	@Workflow("stats-broken")
	public static class BrokenWorkflow {

		@WorkflowRun
		public String run() {
			throw new IllegalStateException("broken on purpose");
		}

	}

	/** Served by no worker of the test: its runs stay in the backlog. */
	@Workflow("stats-unserved")
	public static class UnservedWorkflow {

		@WorkflowRun
		public String run() {
			return "never";
		}

	}

	@Test
	void countsRunsBacklogFailingAndStuckRunsAndNodes() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(QuickWorkflow.class, WaitingWorkflow.class, BrokenWorkflow.class)
			.buildId("build-7"));
		WorkflowEngine client = this.engines
			.start(this.engines.builder().worker(false).register(UnservedWorkflow.class));
		engine.client().start(QuickWorkflow::run, "a", StartOptions.withId("quick-1")).result(Duration.ofSeconds(10));
		engine.client().start(QuickWorkflow::run, "b", StartOptions.withId("quick-2")).result(Duration.ofSeconds(10));
		engine.client().start(WaitingWorkflow::run, StartOptions.withId("waiting-1"));
		engine.client().start(BrokenWorkflow::run, StartOptions.withId("broken-1"));
		client.client().start(UnservedWorkflow::run, StartOptions.withId("unserved-1"));
		await().until(() -> engine.stats(Duration.ofMinutes(5)).backlog().failing() == 1
				&& engine.client().handle("waiting-1").describe().workflowTasks() > 0);

		this.engines.clock.advance(Duration.ofSeconds(30));
		EngineStats stats = engine.stats(Duration.ofMinutes(5));
		assertThat(stats.runs()).contains(new EngineStats.RunCount("stats-quick", WorkflowStatus.COMPLETED, 2),
				new EngineStats.RunCount("stats-waiting", WorkflowStatus.RUNNING, 1),
				new EngineStats.RunCount("stats-broken", WorkflowStatus.RUNNING, 1),
				new EngineStats.RunCount("stats-unserved", WorkflowStatus.RUNNING, 1));
		assertThat(stats.count(WorkflowStatus.RUNNING)).isEqualTo(3);
		// the unserved run waits since its start; the sleeping one is not due
		assertThat(stats.backlog().runnable()).isEqualTo(1);
		assertThat(stats.backlog().oldestWaiting()).isGreaterThanOrEqualTo(Duration.ofSeconds(30));
		assertThat(stats.backlog().failing()).isEqualTo(1);
		assertThat(stats.backlog().stuck()).isZero();
		assertThat(stats.failingRuns()).singleElement().satisfies((failing) -> {
			assertThat(failing.workflowId()).isEqualTo("broken-1");
			assertThat(failing.workflowType()).isEqualTo("stats-broken");
			assertThat(failing.attempts()).isPositive();
			assertThat(failing.reason()).contains("broken on purpose");
			assertThat(failing.failingSince()).isBefore(this.engines.clock.instant());
		});
		assertThat(stats.nodes()).singleElement().satisfies((node) -> {
			assertThat(node.nodeId()).isEqualTo(engine.nodeId());
			assertThat(node.alive()).isTrue();
			assertThat(node.buildId()).isEqualTo("build-7");
			assertThat(node.servedTypes()).contains("stats-quick", "stats-waiting", "stats-broken");
			assertThat(node.taskQueues()).containsExactly("default");
		});

		// failing for longer than the threshold: stuck
		this.engines.clock.advance(Duration.ofMinutes(6));
		assertThat(engine.backlog(null, Duration.ofMinutes(5)).stuck()).isEqualTo(1);
		assertThat(engine.backlog(null, Duration.ofHours(1)).stuck()).isZero();

		// one type: its runs, and the nodes that serve it
		EngineStats quick = engine.stats("stats-quick", Duration.ofMinutes(5));
		assertThat(quick.runs()).containsExactly(new EngineStats.RunCount("stats-quick", WorkflowStatus.COMPLETED, 2));
		assertThat(quick.backlog().failing()).isZero();
		assertThat(quick.failingRuns()).isEmpty();
		assertThat(quick.nodes()).hasSize(1);
		assertThat(engine.stats("stats-unserved", Duration.ofMinutes(5)).nodes()).isEmpty();
	}

}
