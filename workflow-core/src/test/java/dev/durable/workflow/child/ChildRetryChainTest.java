package dev.durable.workflow.child;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.ChildHandle;
import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.ChildWorkflowFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A parent waits for its child's whole chain (retries under the child's retry policy,
 * continue-as-new) and sees the outcome of the run that ends it, as in Temporal; the
 * chain's current run stays the parent's child for the parent close policy.
 */
class ChildRetryChainTest {

	/**
	 * The child's runs, counted across its chain (a side effect, so replay reads the
	 * count).
	 */
	static final AtomicInteger RUNS = new AtomicInteger();

	private final Engines engines = new Engines();

	private WorkflowEngine engine;

	@AfterEach
	void close() {
		this.engines.close();
	}

	@BeforeEach
	void start() {
		RUNS.set(0);
		this.engine = this.engines.start(registered(this.engines.builder()));
	}

	private static WorkflowEngine.Builder registered(WorkflowEngine.Builder builder) {
		return builder.register(ChainParent.class, ChainChild.class);
	}

	/**
	 * Fails its first two runs ("twice"), every run ("always"), or continues as new until
	 * its third run ("continue").
	 */
	@Workflow("chain-child")
	public static class ChainChild {

		@WorkflowRun
		public String run(String mode) {
			int run = Workflows.sideEffect(Integer.class, RUNS::incrementAndGet);
			switch (mode) {
				case "always" -> throw ApplicationFailure.newFailure("simulated child failure " + run, "Simulated");
				case "continue" -> {
					if (run < 3) {
						Workflows.continueAsNew(mode);
					}
				}
				default -> {
					if (run < 3) {
						throw ApplicationFailure.newFailure("simulated child failure " + run, "Simulated");
					}
				}
			}
			return "child done at run " + run;
		}

	}

	/**
	 * Starts the child with a retry policy of 3 attempts and reports its first run and
	 * outcome.
	 */
	@Workflow("chain-parent")
	public static class ChainParent {

		@WorkflowRun
		public String run(String mode) {
			ChildHandle<String> child = Workflows.startChild(ChainChild::run, mode, ChildOptions.withId("child-" + mode)
				.withRetryPolicy(
						RetryPolicy.builder().initialInterval(Duration.ofSeconds(10)).maximumAttempts(3).build()));
			String firstRun = child.started().get();
			if (mode.equals("always")) {
				// a wait that a cancellation of the parent ends (the parent then closes
				// CANCELED)
				Workflows.await(() -> child.result().isCompleted());
			}
			try {
				return firstRun + " -> " + child.result().get();
			}
			catch (ChildWorkflowFailure failure) {
				return firstRun + " -> " + failure.getWorkflowId() + " failed: "
						+ ((ApplicationFailure) failure.getCause()).getType() + " " + failure.getCause().getMessage();
			}
		}

	}

	private List<Map<String, Object>> runs(String workflowId) {
		return this.engines.jdbc()
			.queryForList("SELECT run_id, status, attempt, parent_run_id FROM " + this.engines.schema
					+ ".workflow_run WHERE workflow_id = ? ORDER BY created_at, run_id", workflowId);
	}

	private static long childCloses(WorkflowHandle<?> parent) {
		return parent.history().stream().map(HistoryEvent::type).filter("CHILD_CLOSED"::equals).count();
	}

	/** Waits until the child's retry run is pending, with the parent still waiting. */
	private void awaitRetryPending(WorkflowHandle<String> parent, String childId, int runs) {
		await().until(() -> runs(childId).size() == runs);
		// the retry run is the parent's child: its description names the parent, which
		// waits on
		assertThat(this.engine.client().handle(childId).describe().parentRunId()).isEqualTo(parent.runId());
		assertThat(this.engine.client().handle(childId).describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(parent.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(childCloses(parent)).isZero();
	}

	@Test
	void theParentGetsTheResultOfTheRetryThatSucceeds() {
		WorkflowHandle<String> parent = this.engine.client()
			.start(ChainParent::run, "twice", StartOptions.withId("parent-twice"));
		awaitRetryPending(parent, "child-twice", 2);
		this.engines.clock.advance(Duration.ofSeconds(10));
		awaitRetryPending(parent, "child-twice", 3);
		this.engines.clock.advance(Duration.ofSeconds(20));
		List<Map<String, Object>> runs = runs("child-twice");
		// the parent's handle names the chain's first run, as Temporal's child execution
		// does
		assertThat(parent.result(Duration.ofSeconds(15)))
			.isEqualTo(runs.get(0).get("run_id") + " -> child done at run 3");
		assertThat(runs("child-twice")).extracting((r) -> r.get("status") + "/" + r.get("attempt"))
			.containsExactly("FAILED/1", "FAILED/2", "COMPLETED/3");
		assertThat(runs("child-twice")).extracting((r) -> r.get("parent_run_id")).containsOnly(parent.runId());
		assertThat(childCloses(parent)).isEqualTo(1);
		Engines.assertReplays(this.engine, parent.runId());
		for (Map<String, Object> run : runs("child-twice")) {
			Engines.assertReplays(this.engine, (java.util.UUID) run.get("run_id"));
		}
	}

	@Test
	void theParentGetsTheLastFailureWhenEveryAttemptFails() {
		WorkflowHandle<String> parent = this.engine.client()
			.start(ChainParent::run, "always", StartOptions.withId("parent-always"));
		awaitRetryPending(parent, "child-always", 2);
		this.engines.clock.advance(Duration.ofSeconds(10));
		awaitRetryPending(parent, "child-always", 3);
		this.engines.clock.advance(Duration.ofSeconds(20));
		assertThat(parent.result(Duration.ofSeconds(15)))
			.endsWith(" -> child-always failed: Simulated simulated child failure 3");
		assertThat(runs("child-always")).extracting((r) -> r.get("status") + "/" + r.get("attempt"))
			.containsExactly("FAILED/1", "FAILED/2", "FAILED/3");
		assertThat(childCloses(parent)).isEqualTo(1);
		Engines.assertReplays(this.engine, parent.runId());
	}

	@Test
	void theParentGetsTheResultOfTheRunAChildContinuedAsNewInto() {
		WorkflowHandle<String> parent = this.engine.client()
			.start(ChainParent::run, "continue", StartOptions.withId("parent-continue"));
		String result = parent.result(Duration.ofSeconds(15));
		List<Map<String, Object>> runs = runs("child-continue");
		assertThat(result).isEqualTo(runs.get(0).get("run_id") + " -> child done at run 3");
		assertThat(runs).extracting((r) -> r.get("status"))
			.containsExactly("CONTINUED_AS_NEW", "CONTINUED_AS_NEW", "COMPLETED");
		assertThat(childCloses(parent)).isEqualTo(1);
		Engines.assertReplays(this.engine, parent.runId());
	}

	@Test
	void cancellingTheParentReachesTheChildsPendingRetry() {
		WorkflowHandle<String> parent = this.engine.client()
			.start(ChainParent::run, "always", StartOptions.withId("parent-canceled"));
		awaitRetryPending(parent, "child-always", 2);
		parent.cancel("no longer needed");
		await().until(() -> parent.describe().status().isClosed());
		assertThat(parent.describe().status()).isEqualTo(WorkflowStatus.CANCELED);
		// the parent close policy (TERMINATE) reaches the chain's current run, not its
		// closed first one
		await().until(() -> this.engine.client().handle("child-always").describe().status().isClosed());
		assertThat(runs("child-always")).extracting((r) -> r.get("status")).containsExactly("FAILED", "TERMINATED");
	}

	@Test
	void terminatingTheParentTerminatesTheChildsPendingRetry() {
		WorkflowHandle<String> parent = this.engine.client()
			.start(ChainParent::run, "twice", StartOptions.withId("parent-terminated"));
		awaitRetryPending(parent, "child-twice", 2);
		parent.terminate("operator");
		await().until(() -> this.engine.client().handle("child-twice").describe().status().isClosed());
		assertThat(runs("child-twice")).extracting((r) -> r.get("status")).containsExactly("FAILED", "TERMINATED");
	}

	@Test
	void aRestartWhileTheRetryIsPendingDeliversTheOutcomeOnce() {
		WorkflowHandle<String> parent = this.engine.client()
			.start(ChainParent::run, "twice", StartOptions.withId("parent-restart"));
		awaitRetryPending(parent, "child-twice", 2);
		this.engine.shutdown();
		// another node takes the parent and the pending retry over; the parent replays
		// its history
		this.engine = this.engines.start(registered(this.engines.builder()));
		this.engines.clock.advance(Duration.ofSeconds(10));
		await().until(() -> runs("child-twice").size() == 3);
		this.engines.clock.advance(Duration.ofSeconds(20));
		WorkflowHandle<String> again = this.engine.client().handle("parent-restart", String.class);
		assertThat(again.result(Duration.ofSeconds(15))).endsWith(" -> child done at run 3");
		assertThat(runs("child-twice")).extracting((r) -> r.get("status") + "/" + r.get("attempt"))
			.containsExactly("FAILED/1", "FAILED/2", "COMPLETED/3");
		assertThat(childCloses(again)).isEqualTo(1);
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".inbox", Integer.class)).isZero();
		Engines.assertReplays(this.engine, again.runId());
	}

}
