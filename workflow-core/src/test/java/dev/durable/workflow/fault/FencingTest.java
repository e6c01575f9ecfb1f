package dev.durable.workflow.fault;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The invariants that make durability true (DESIGN section 5), each shown by a stalled
 * node: the epoch compare-and-set on every task commit, the pending-input flag checked
 * when a run closes, and inbox items consumed by id.
 */
class FencingTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Steps {

		private final String node;

		public Steps(String node) {
			this.node = node;
		}

		public String step(String name) {
			return name + "@" + this.node;
		}

	}

	/** A step, a timer, another step. */
	@Workflow("fenced")
	public static class FencedWorkflow {

		private final Steps steps;

		public FencedWorkflow(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run() {
			String first = this.steps.step("first");
			Workflows.sleep(Duration.ofHours(1));
			return first + " " + this.steps.step("second");
		}

	}

	/** One step, then done. */
	@Workflow("quick")
	public static class QuickWorkflow {

		private final Steps steps;

		public QuickWorkflow(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run() {
			return this.steps.step("only");
		}

	}

	private WorkflowEngine node(String name, StallingHooks hooks) {
		return this.engines.start(this.engines.builder()
			.register(FencedWorkflow.class, QuickWorkflow.class)
			.registerActivities(new Steps(name))
			.hooks(hooks));
	}

	private List<Map<String, Object>> historyRows() {
		return this.engines.jdbc()
			.queryForList("SELECT run_id, seq, events FROM " + this.engines.schema + ".history ORDER BY run_id, seq");
	}

	@Test
	void aStalledNodeThatLostItsRunCannotCommit() throws Exception {
		StallingHooks stalled = new StallingHooks();
		WorkflowEngine a = node("a", stalled);
		WorkflowHandle<String> handle = a.client().start(FencedWorkflow::run, StartOptions.withId("fenced-1"));
		await().until(() -> this.engines.count("timer") == 1);

		// node a freezes: its heartbeats stop, and the task that handles the timer hangs
		// before its commit
		stalled.stallHeartbeats = true;
		stalled.stallCommits = true;
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(stalled.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();

		// node b sees a's heartbeat go stale, takes the run over and finishes it
		WorkflowEngine b = node("b", new StallingHooks());
		// observed through b: a, its heartbeat stalled past its lease, has fenced itself
		// and answers no calls
		WorkflowHandle<String> seen = b.client().handle("fenced-1", String.class);
		assertThat(seen.result(Duration.ofSeconds(20))).isEqualTo("first@a second@b");
		List<Map<String, Object>> before = historyRows();
		long epoch = this.engines.jdbc()
			.queryForObject("SELECT epoch FROM " + this.engines.schema + ".workflow_run", Long.class);
		assertThat(epoch).isEqualTo(2);

		// a wakes up: its commit is refused and nothing it did becomes visible
		stalled.release();
		await().until(() -> a.cachedRuns() == 0);
		assertThat(historyRows()).usingRecursiveComparison().isEqualTo(before);
		assertThat(seen.describe().status()).isEqualTo(WorkflowStatus.COMPLETED);
		assertThat(this.engines.count("activity")).isZero();
		// and a learns it was declared dead: it registers a new incarnation
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT incarnation FROM " + this.engines.schema + ".node WHERE node_id = ?", Long.class,
					a.nodeId()) == 2);
		Engines.assertReplays(b, handle.runId());
	}

	@Test
	void inputThatArrivesWhileARunClosesIsNotLost() throws Exception {
		StallingHooks hooks = new StallingHooks();
		hooks.stallCommitNumber = 2;
		WorkflowEngine a = node("a", hooks);
		WorkflowHandle<String> handle = a.client().start(QuickWorkflow::run, StartOptions.withId("closing"));
		// the task that closes the run (commit 2, after the step completed) is in
		// flight...
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		// ...when a cancel is accepted: the close must be refused and the task run again
		// with it,
		// which sees the request: the run returns after it, so it closes CANCELED
		a.client().handle("closing").cancel("too late?");
		hooks.release();
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies(
					(ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.CANCELED));
		assertThat(handle.history()).extracting(HistoryEvent::type)
			.containsSubsequence("ACTIVITY_COMPLETED", "CANCEL_REQUESTED", "WORKFLOW_CANCELED")
			.doesNotContain("WORKFLOW_COMPLETED");
		assertThat(this.engines.count("inbox")).isZero();
		Engines.assertReplays(a, handle.runId());
	}

	@Test
	void inboxItemsAreConsumedByIdNotByRun() throws Exception {
		StallingHooks hooks = new StallingHooks();
		hooks.stallCommitNumber = 2;
		WorkflowEngine a = node("a", hooks);
		WorkflowHandle<String> handle = a.client().start(FencedWorkflow::run, StartOptions.withId("consumed-by-id"));
		// the task that records the first step's completion and starts the timer is
		// stalled...
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();
		// ...while a cancel arrives; the task commits without it and must leave it in the
		// inbox
		a.client().handle("consumed-by-id").cancel("stop sleeping");
		hooks.release();
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies(
					(ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.CANCELED));
		assertThat(handle.history()).extracting(HistoryEvent::type)
			.containsSubsequence("TIMER_STARTED", "CANCEL_REQUESTED", "TIMER_CANCELED", "WORKFLOW_CANCELED");
		Engines.assertReplays(a, handle.runId());
	}

	@Test
	void aCommitWithAnUnknownOutcomeIsRetriedFromTheDatabaseState() {
		StallingHooks hooks = new StallingHooks();
		hooks.failCommitNumber = 2;
		Steps steps = new Steps("a") {
			@Override
			public String step(String name) {
				STEP_CALLS.incrementAndGet();
				return super.step(name);
			}
		};
		STEP_CALLS.set(0);
		WorkflowEngine a = this.engines.start(this.engines.builder()
			.register(QuickWorkflow.class)
			.registerActivities(steps)
			.hooks(hooks)
			.pollInterval(Duration.ofMillis(100)));
		WorkflowHandle<String> handle = a.client().start(QuickWorkflow::run, StartOptions.withId("unknown-outcome"));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("only@a");
		assertThat(STEP_CALLS.get()).as("the completion handed over in memory is not lost").isEqualTo(1);
		Engines.assertReplays(a, handle.runId());
	}

	static final java.util.concurrent.atomic.AtomicInteger STEP_CALLS = new java.util.concurrent.atomic.AtomicInteger();

}
