package dev.durable.workflow.run;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.ChildHandle;
import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Reset to a workflow-task boundary: the kept history replays (same random seed), pending
 * activities and timers come back, signals after the boundary are re-applied, children
 * move to the new run, and bad reset points change nothing.
 */
class ResetTest {

	private final Engines engines = new Engines();

	private final Steps steps = new Steps();

	private WorkflowEngine engine;

	@AfterEach
	void close() {
		this.engines.close();
	}

	@BeforeEach
	void start() {
		this.engine = this.engines.start(this.engines.builder()
			.register(Ordering.class, Napping.class, Parent.class, Child.class)
			.registerActivities(this.steps));
	}

	/** Activities whose second step has a bug until a test fixes it. */
	@Activity
	public static class Steps {

		final AtomicInteger reserved = new AtomicInteger();

		final AtomicInteger shipped = new AtomicInteger();

		final AtomicBoolean fixed = new AtomicBoolean();

		public String reserve(int ticket) {
			this.reserved.incrementAndGet();
			return "reserved#" + ticket;
		}

		@ActivityMethod(maxAttempts = 1)
		public String ship(String what) {
			this.shipped.incrementAndGet();
			if (!this.fixed.get()) {
				throw ApplicationFailure.newNonRetryableFailure("carrier rejected " + what, "CarrierBug");
			}
			return "shipped " + what;
		}

	}

	/** Reserves with a random ticket, waits for "go", then ships. */
	@Workflow(value = "ordering", receives = { "go" })
	public static class Ordering {

		private final Steps steps;

		public Ordering(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run() {
			int ticket = Workflows.random().nextInt(1_000_000);
			String reservation = this.steps.reserve(ticket);
			String go = Workflows.receive("go", String.class);
			return this.steps.ship(reservation) + " after " + go + " ticket " + ticket;
		}

	}

	/** Sleeps an hour; a "note" signal arriving meanwhile is kept for the result. */
	@Workflow("napping")
	public static class Napping {

		private String note = "none";

		@WorkflowRun
		public String run() {
			Workflows.upsertSearchAttributes(java.util.Map.of("stage", "napping"));
			Workflows.sleep(Duration.ofHours(1));
			return "woke with note " + this.note;
		}

		@SignalMethod
		public void note(String text) {
			this.note = text;
		}

	}

	/** Waits for "finish". */
	@Workflow(value = "reset-child", receives = { "finish" })
	public static class Child {

		@WorkflowRun
		public String run() {
			return "child " + Workflows.receive("finish", String.class);
		}

	}

	/** Starts a child with a fixed id, then waits for "more" and for the child. */
	@Workflow(value = "reset-parent", receives = { "more" })
	public static class Parent {

		@WorkflowRun
		public String run() {
			ChildHandle<String> child = Workflows.startChild(Child::run, ChildOptions.withId("the-child"));
			child.started().get();
			String more = Workflows.receive("more", String.class);
			return child.result().get() + " + " + more;
		}

	}

	private static long eventId(WorkflowHandle<?> handle, String type) {
		return handle.history().stream().filter((e) -> e.type().equals(type)).findFirst().orElseThrow().eventId();
	}

	@Test
	void resetReRunsTheFailedStepWithFixedCodeKeepingEverythingBefore() {
		WorkflowHandle<String> handle = this.engine.client().start(Ordering::run, StartOptions.withId("order-1"));
		await().until(() -> this.steps.reserved.get() == 1);
		handle.signal("go", "green light", "signal-key-1");
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class);
		List<?> arguments = (List<?>) handle.history()
			.stream()
			.filter((e) -> e.type().equals("ACTIVITY_SCHEDULED"))
			.findFirst()
			.orElseThrow()
			.attributes()
			.get("arguments");
		int ticket = ((Number) arguments.get(0)).intValue();
		var failedRun = handle.runId();

		this.steps.fixed.set(true);
		// the task that applied the ship failure runs again; ship was scheduled before it
		var newRun = handle.reset(eventId(handle, "ACTIVITY_FAILED"), "carrier fixed");

		assertThat(handle.result(Duration.ofSeconds(10)))
			.isEqualTo("shipped reserved#" + ticket + " after green light ticket " + ticket);
		assertThat(this.engine.client().handle("order-1").runId()).isEqualTo(newRun);
		assertThat(this.steps.reserved).hasValue(1);
		assertThat(this.steps.shipped).hasValue(2);
		// the failed run is closed as it was: a reset of a closed run keeps its outcome
		assertThat(this.engine.client().handle("order-1", failedRun).describe().status())
			.isEqualTo(WorkflowStatus.FAILED);
		Engines.assertReplays(this.engine, newRun);
	}

	@Test
	void resetToTheStartRunsEverythingAgainAndReappliesSignalsOnce() {
		this.steps.fixed.set(true);
		WorkflowHandle<String> handle = this.engine.client().start(Ordering::run, StartOptions.withId("order-2"));
		handle.signal("go", "first", "signal-key-2");
		assertThat(handle.result(Duration.ofSeconds(10))).startsWith("shipped");

		var newRun = handle.reset(1, "run it all again");
		assertThat(handle.result(Duration.ofSeconds(10))).contains("after first");
		assertThat(this.steps.reserved).hasValue(2);
		// the idempotency key stays recorded for the workflow id: a retried send is still
		// a no-op
		handle.signal("go", "first", "signal-key-2");
		List<HistoryEvent> history = this.engine.client().handle("order-2", newRun).history();
		assertThat(history).filteredOn((e) -> e.type().equals("SIGNAL_RECEIVED")).hasSize(1);
		Engines.assertReplays(this.engine, newRun);
	}

	@Test
	void resetOfAnOpenRunTerminatesItAndRecreatesItsPendingTimer() {
		WorkflowHandle<String> handle = this.engine.client()
			.start(Napping::run,
					StartOptions.builder()
						.workflowId("nap")
						.searchAttributes(java.util.Map.of("owner", "ops"))
						.build());
		await().until(() -> this.engines.count("timer") == 1);
		handle.signal("note", "remember the milk");
		await().until(() -> handle.history().stream().anyMatch((e) -> e.type().equals("SIGNAL_RECEIVED")));
		var oldRun = handle.runId();

		var newRun = handle.reset(eventId(handle, "SIGNAL_RECEIVED"), "operator asked");

		var old = this.engine.client().handle("nap", oldRun);
		assertThat(old.describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
		assertThat(old.history()).last().satisfies((e) -> {
			assertThat(e.type()).isEqualTo("WORKFLOW_TERMINATED");
			assertThat(e.attributes().get("reason").toString()).contains("reset to event").contains("operator asked");
		});
		// the start values and the upserts of the kept tasks
		assertThat(this.engine.client().handle("nap").describe().searchAttributes()).containsEntry("owner", "ops")
			.containsEntry("stage", "napping");
		// the timer started in the kept task is pending again, with its original fire
		// time
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".timer WHERE run_id = ?", Integer.class,
					newRun) == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("woke with note remember the milk");
		Engines.assertReplays(this.engine, newRun);
	}

	@Test
	void childrenStartedBeforeTheBoundaryBelongToTheNewRunAndLaterOnesStartAgain() {
		WorkflowHandle<String> handle = this.engine.client().start(Parent::run, StartOptions.withId("parent-1"));
		await().until(() -> handle.history().stream().anyMatch((e) -> e.type().equals("CHILD_STARTED")));
		handle.signal("more", "extra");
		await().until(() -> handle.history().stream().anyMatch((e) -> e.type().equals("SIGNAL_RECEIVED")));
		var child = this.engine.client().handle("the-child").runId();

		// keep the child's start: the open child moves to the new parent run
		var newRun = handle.reset(eventId(handle, "SIGNAL_RECEIVED"), "keep the child");
		assertThat(this.engine.client().handle("the-child").runId()).isEqualTo(child);
		this.engine.client().handle("the-child").signal("finish", "done");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("child done + extra");
		Engines.assertReplays(this.engine, newRun);
	}

	@Test
	void aChildStartedAfterTheBoundaryIsTerminatedSoTheNewRunCanStartItAgain() {
		WorkflowHandle<String> handle = this.engine.client().start(Parent::run, StartOptions.withId("parent-2"));
		await().until(() -> handle.history().stream().anyMatch((e) -> e.type().equals("CHILD_STARTED")));
		var firstChild = this.engine.client().handle("the-child").runId();

		handle.reset(1, "from the top");
		await().until(() -> !this.engine.client().handle("the-child").runId().equals(firstChild)
				&& this.engine.client().handle("the-child").describe().status() == WorkflowStatus.RUNNING);
		assertThat(this.engine.client().handle("the-child", firstChild).describe().status())
			.isEqualTo(WorkflowStatus.TERMINATED);
		// the handle start returned follows the workflow id to the new run
		handle.signal("more", "again");
		this.engine.client().handle("the-child").signal("finish", "twice");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("child twice + again");
	}

	@Test
	void badResetPointsAreRefusedAndChangeNothing() {
		WorkflowHandle<String> handle = this.engine.client().start(Napping::run, StartOptions.withId("nap-bad"));
		await().until(() -> this.engines.count("timer") == 1);
		int runs = this.engines.count("workflow_run");
		assertThatThrownBy(() -> handle.reset(0, "x")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("No event 0");
		assertThatThrownBy(() -> handle.reset(999, "x")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("it has");
		handle.terminate("stop");
		long terminated = eventId(handle, "WORKFLOW_TERMINATED");
		assertThatThrownBy(() -> handle.reset(terminated, "x")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("not written by a workflow task");
		assertThat(this.engines.count("workflow_run")).isEqualTo(runs);

		var first = handle.runId();
		handle.reset(1, "again");
		var pinnedToOld = this.engine.client().handle("nap-bad", first);
		assertThatThrownBy(() -> pinnedToOld.reset(1, "x")).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("not the latest run");
		assertThat(this.engines.count("workflow_run")).isEqualTo(runs + 1);
	}

}
