package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.internal.worker.NodeInternals;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * How a node stops ({@code WorkflowEngine.shutdown}): it takes no new work at once, lets
 * the attempts under way finish (up to the shutdown timeout) and commits their outcomes,
 * then releases its runs, so that another node takes them at once. Every node here has a
 * {@code dead-after} of a minute: a run the stopping node did not release could not be
 * taken within the tests' waits.
 */
class EngineShutdownTest {

	static final List<String> EXECUTIONS = new CopyOnWriteArrayList<>();

	/** Holds the first step on node a until the test lets it end. */
	static volatile CountDownLatch release = new CountDownLatch(1);

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		release.countDown();
		this.engines.close();
		EXECUTIONS.clear();
		release = new CountDownLatch(1);
	}

	@Activity
	public static class Steps {

		private final String node;

		public Steps(String node) {
			this.node = node;
		}

		@ActivityMethod(initialInterval = "PT1S")
		public String first(String input) {
			return run("first", input);
		}

		@ActivityMethod(initialInterval = "PT1S")
		public String second(String input) {
			return run("second", input);
		}

		@ActivityMethod(taskQueue = "gpu", initialInterval = "PT1S")
		public String firstQueued(String input) {
			return run("firstQueued", input);
		}

		@ActivityMethod(taskQueue = "gpu", initialInterval = "PT1S")
		public String secondQueued(String input) {
			return run("secondQueued", input);
		}

		private String run(String step, String input) {
			EXECUTIONS.add(this.node + ":" + step + ":" + ActivityContext.current().info().attempt());
			if (this.node.equals("a") && step.startsWith("first")) {
				try {
					release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return input + "-" + step;
		}

	}

	@Workflow("two-steps")
	public static class TwoSteps {

		private final Steps steps;

		public TwoSteps(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String input) {
			return this.steps.second(this.steps.first(input));
		}

	}

	@Workflow("two-queued-steps")
	public static class TwoQueuedSteps {

		private final Steps steps;

		public TwoQueuedSteps(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String input) {
			return this.steps.secondQueued(this.steps.firstQueued(input));
		}

	}

	private WorkflowEngine.Builder node(String name, Duration shutdownTimeout) {
		return this.engines.builder()
			.register(TwoSteps.class, TwoQueuedSteps.class)
			.registerActivities(new Steps(name))
			.activityTaskQueues("gpu")
			.heartbeatInterval(Duration.ofMillis(500))
			.deadAfter(Duration.ofMinutes(1))
			.shutdownTimeout(shutdownTimeout);
	}

	/** Stops the node on another thread; the future gives how long the stop took. */
	private static CompletableFuture<Duration> stopping(WorkflowEngine engine) {
		CompletableFuture<Duration> stopped = CompletableFuture.supplyAsync(() -> {
			long began = System.nanoTime();
			engine.shutdown();
			return Duration.ofNanos(System.nanoTime() - began);
		});
		await("the node takes no new work").until(() -> NodeInternals.isStopping(engine));
		return stopped;
	}

	@Test
	void anInlineAttemptUnderWayFinishesAndCommitsAndTheNextActivityStartsOnTheNodeThatTakesOver() throws Exception {
		WorkflowEngine a = this.engines.start(node("a", Duration.ofSeconds(10)));
		WorkflowHandle<String> handle = a.client().start(TwoSteps::run, "x", StartOptions.withId("inline-1"));
		await().until(() -> EXECUTIONS.contains("a:first:1"));

		CompletableFuture<Duration> stopped = stopping(a);
		release.countDown(); // the attempt ends during the stop: its outcome commits, the
								// next step does not start
		Duration took = stopped.get(20, TimeUnit.SECONDS);

		assertThat(took).as("the stop waits for the attempt, not for the timeout").isLessThan(Duration.ofSeconds(10));
		assertThat(EXECUTIONS).containsExactly("a:first:1");
		assertThat(handle.history()).extracting(HistoryEvent::type).contains("ACTIVITY_COMPLETED");
		assertThat(owner(handle.runId())).as("the run's owner after the stop").isNull();
		assertThat(this.engines.jdbc()
			.queryForList("SELECT attempt FROM " + this.engines.schema + ".activity WHERE run_id = ?", Integer.class,
					handle.runId()))
			.as("the second step's row says it never started")
			.containsExactly(0);

		WorkflowEngine b = this.engines.start(node("b", Duration.ofSeconds(10)));
		assertThat(onNode(b, handle).result(Duration.ofSeconds(10))).isEqualTo("x-first-second");
		// the first step ran once; the second is the first attempt on b, not one lost
		// with a
		assertThat(EXECUTIONS).containsExactly("a:first:1", "b:second:1");
	}

	@Test
	void aTaskQueueAttemptUnderWayFinishesAndTheStoppingNodeClaimsNoMore() throws Exception {
		WorkflowEngine a = this.engines.start(node("a", Duration.ofSeconds(10)));
		WorkflowHandle<String> handle = a.client().start(TwoQueuedSteps::run, "y", StartOptions.withId("queued-1"));
		await().until(() -> EXECUTIONS.contains("a:firstQueued:1"));

		CompletableFuture<Duration> stopped = stopping(a);
		release.countDown();
		Duration took = stopped.get(20, TimeUnit.SECONDS);

		assertThat(took).isLessThan(Duration.ofSeconds(10));
		assertThat(EXECUTIONS).containsExactly("a:firstQueued:1");
		assertThat(owner(handle.runId())).isNull();
		WorkflowEngine b = this.engines.start(node("b", Duration.ofSeconds(10)));
		assertThat(onNode(b, handle).result(Duration.ofSeconds(10))).isEqualTo("y-firstQueued-secondQueued");
		assertThat(EXECUTIONS).containsExactly("a:firstQueued:1", "b:secondQueued:1");
	}

	@Test
	void anAttemptStillRunningAtTheTimeoutIsGivenUpAndTheNextOwnerRetriesItAtOnce() throws Exception {
		WorkflowEngine a = this.engines.start(node("a", Duration.ofSeconds(1)));
		WorkflowHandle<String> handle = a.client().start(TwoSteps::run, "z", StartOptions.withId("inline-2"));
		await().until(() -> EXECUTIONS.contains("a:first:1"));

		Duration took = stopping(a).get(20, TimeUnit.SECONDS);

		assertThat(took).as("the stop ends at the timeout").isBetween(Duration.ofSeconds(1), Duration.ofSeconds(4));
		assertThat(owner(handle.runId())).isNull();
		WorkflowEngine b = this.engines.start(node("b", Duration.ofSeconds(10)));
		// the given-up attempt counts as lost: its retry comes after the backoff of the
		// engine's clock
		await().until(() -> !handle.describe().pendingActivities().isEmpty()
				&& handle.describe().pendingActivities().get(0).attempt() == 2);
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(onNode(b, handle).result(Duration.ofSeconds(10))).isEqualTo("z-first-second");
		release.countDown(); // node a's abandoned attempt now ends: its outcome is
								// dropped
		assertThat(EXECUTIONS).containsExactly("a:first:1", "b:first:2", "b:second:1");
	}

	@Test
	void aNodeThatStopsWithNothingUnderWayStopsAtOnce() {
		WorkflowEngine a = this.engines.start(node("a", Duration.ofSeconds(10)));
		long began = System.nanoTime();
		a.shutdown();
		assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(3));
		assertThat(this.engines.count("node")).as("the node unregistered").isZero();
	}

	/**
	 * The run's handle on a serving node: a stopped node's client is not told when a run
	 * another node holds closes, so its wait would only end at the timeout.
	 */
	private static WorkflowHandle<String> onNode(WorkflowEngine node, WorkflowHandle<String> handle) {
		return node.client().handle(handle.workflowId(), String.class);
	}

	private UUID owner(UUID runId) {
		return this.engines.jdbc()
			.queryForObject("SELECT owner_node FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
					UUID.class, runId);
	}

}
