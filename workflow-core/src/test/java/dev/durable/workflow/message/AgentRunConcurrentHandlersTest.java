package dev.durable.workflow.message;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.WorkflowUpdateFailedException;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Two changeGoal handlers at once, with and without a lock, drained or cut off when the
 * run returns.
 */
class AgentRunConcurrentHandlersTest extends AgentRunFixture {

	/**
	 * A run after two changeGoal updates and a pause reached it in one activation.
	 *
	 * @param worker the worker that runs it now
	 * @param handle its handle
	 * @param a update A (GOAL_A), sent first
	 * @param b update B (GOAL_B), sent second
	 */
	private record Delivered(WorkflowEngine worker, WorkflowHandle<String> handle, UpdateHandle<String> a,
			UpdateHandle<String> b) {
	}

	/**
	 * Starts an agent, lets it do one step, then delivers update A, update B and a pause
	 * signal so that ONE workflow task sees all three, in that order; A's activity is
	 * held at a gate.
	 * <p>
	 * How this is made deterministic: a workflow task takes the run's whole inbox at
	 * once, ordered by arrival. So the worker is stopped, the three messages are stored
	 * through a client-only node while no worker runs, and only then a new worker is
	 * started: its first task applies A, B and pause together. {@code startUpdate} waits
	 * for ACCEPTED, which needs a worker, so each update is sent from its own thread; the
	 * test waits until each one is stored (its inbox row) before it sends the next, which
	 * fixes the order A, B, pause.
	 */
	private Delivered startAndDeliver(String workflowId, boolean lockGoal, boolean drainHandlers) throws Exception {
		WorkflowEngine first = worker();
		WorkflowHandle<String> started = first.client()
			.start(AgentRun::run, new AgentInput("ship v1", 10, lockGoal, drainHandlers),
					StartOptions.withId(workflowId));
		awaitStep(started, 1);
		this.tools.hold(GOAL_A);
		first.shutdown();

		WorkflowEngine api = clientOnly();
		WorkflowHandle<String> remote = api.client().handle(workflowId, String.class);
		CompletableFuture<UpdateHandle<String>> a = CompletableFuture.supplyAsync(() -> remote
			.startUpdate(AgentRun::changeGoal, new ChangeGoal(GOAL_A, "cmd-A"), UpdateOptions.withId("update-A")),
				this.senders);
		await().until(() -> this.engines.count("inbox") == 1);
		CompletableFuture<UpdateHandle<String>> b = CompletableFuture.supplyAsync(() -> remote
			.startUpdate(AgentRun::changeGoal, new ChangeGoal(GOAL_B, "cmd-B"), UpdateOptions.withId("update-B")),
				this.senders);
		await().until(() -> this.engines.count("inbox") == 2);
		remote.signal(AgentRun::pause);
		assertThat(this.engines.count("inbox")).isEqualTo(3);
		assertThat(a).isNotDone();

		WorkflowEngine second = worker();
		WorkflowHandle<String> handle = second.client().handle(workflowId, String.class);
		UpdateHandle<String> updateA = a.get(20, TimeUnit.SECONDS);
		UpdateHandle<String> updateB = b.get(20, TimeUnit.SECONDS);
		assertThat(updateA.stage()).isEqualTo(UpdateStage.ACCEPTED);

		// the two UPDATE_ACCEPTED events and the pause: one workflow task, in the order
		// received
		List<HistoryEvent> history = handle.history();
		HistoryEvent acceptedA = accepted(history, GOAL_A);
		HistoryEvent acceptedB = accepted(history, GOAL_B);
		List<HistoryEvent> pauses = events(history, "SIGNAL_RECEIVED", "pause");
		assertThat(pauses).hasSize(1);
		assertThat(acceptedA.attributes()).containsEntry("name", "changeGoal");
		assertThat(payloadField(acceptedA, "commandId")).isEqualTo("cmd-A");
		assertThat(payloadField(acceptedB, "commandId")).isEqualTo("cmd-B");
		assertThat(List.of(acceptedB.workflowTask(), pauses.get(0).workflowTask()))
			.containsOnly(acceptedA.workflowTask());
		assertThat(List.of(acceptedA.eventId(), acceptedB.eventId(), pauses.get(0).eventId())).isSorted();
		assertThat(this.tools.started(GOAL_A).await(10, TimeUnit.SECONDS)).as("A's activity runs").isTrue();
		return new Delivered(second, handle, updateA, updateB);
	}

	@Test
	void withoutALockTheOlderGoalOverwritesTheNewer() throws Exception {
		Delivered run = startAndDeliver("agent-5-5-unlocked", false, true);
		WorkflowHandle<String> handle = run.handle();
		// A's handler started first and yielded at its activity; B's ran to its own
		// activity, which
		// finishes first: B writes its goal
		assertThat(events(handle.history(), "ACTIVITY_SCHEDULED", "rewriteContext")).hasSize(2);
		assertThat(run.b().result(Duration.ofSeconds(10))).isEqualTo(GOAL_B);
		assertThat(handle.query(AgentRun::status).goal()).isEqualTo(GOAL_B);

		// then A resumes and overwrites it with the older goal, and tells its caller so
		this.tools.release(GOAL_A);
		assertThat(run.a().result(Duration.ofSeconds(10))).isEqualTo(GOAL_A);
		AgentStatus status = handle.query(AgentRun::status);
		assertThat(status.goal()).isEqualTo(GOAL_A);
		assertThat(status.paused()).isTrue();
		assertThat(status.injected()).containsExactly("goal changed from 'ship v1' to '" + GOAL_B + "'",
				"goal changed from 'ship v1' to '" + GOAL_A + "'");

		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10))).startsWith("goal '" + GOAL_A + "', 1 steps, cancelled");
		assertThat(handle.describe().unfinishedHandlers()).isZero();
		Engines.assertReplays(run.worker(), handle.runId());
	}

	@Test
	void withALockTheLaterGoalWinsAndTheRunDrainsItsHandlersBeforeItCompletes() throws Exception {
		Delivered run = startAndDeliver("agent-5-5-locked", true, true);
		WorkflowHandle<String> handle = run.handle();
		// A holds the lock while it awaits its activity; B waits for the lock, its
		// activity is not scheduled
		assertThat(events(handle.history(), "ACTIVITY_SCHEDULED", "rewriteContext")).hasSize(1);

		// the main loop ends while A's handler still awaits its activity: it drains first
		handle.signal(AgentRun::cancelRun);
		await().until(() -> count(handle, "SIGNAL_RECEIVED", "cancelRun") == 1);
		assertThat(handle.query(AgentRun::status).cancelled()).isTrue();
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(types(handle)).doesNotContain("UPDATE_COMPLETED", "WORKFLOW_COMPLETED");

		this.tools.release(GOAL_A);
		assertThat(handle.result(Duration.ofSeconds(10)))
			.isEqualTo("goal '" + GOAL_B + "', 1 steps, cancelled, notes [" + "goal changed from 'ship v1' to '"
					+ GOAL_A + "', goal changed from '" + GOAL_A + "' to '" + GOAL_B + "']");
		// both callers got their answers: A completed, then B read A's goal and replaced
		// it
		assertThat(run.a().result(Duration.ofSeconds(10))).isEqualTo(GOAL_A);
		assertThat(run.b().result(Duration.ofSeconds(10))).isEqualTo(GOAL_B);
		List<String> types = types(handle);
		assertThat(types).containsSubsequence("UPDATE_COMPLETED", "UPDATE_COMPLETED", "WORKFLOW_COMPLETED");
		assertThat(types).last().isEqualTo("WORKFLOW_COMPLETED");
		assertThat(handle.describe().unfinishedHandlers()).isZero();
		Engines.assertReplays(run.worker(), handle.runId());
	}

	/**
	 * The main loop returns while A awaits its activity and B waits for the lock: both
	 * handlers are cut off when the run completes.
	 */
	private Delivered completeWithoutDraining(String workflowId) throws Exception {
		Delivered run = startAndDeliver(workflowId, true, false);
		WorkflowHandle<String> handle = run.handle();
		handle.signal(AgentRun::cancelRun);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("goal 'ship v1', 1 steps, cancelled, notes []");
		return run;
	}

	@Test
	void returningWithoutDrainingCutsTheHandlersOff() throws Exception {
		Delivered run = completeWithoutDraining("agent-5-5-undrained");
		WorkflowHandle<String> handle = run.handle();
		assertThat(types(handle)).doesNotContain("UPDATE_COMPLETED");
		assertThat(types(handle)).last().isEqualTo("WORKFLOW_COMPLETED");
		// their callers learn the run closed before the updates completed (Temporal: "Not
		// Found")
		assertThatThrownBy(() -> run.a().result(Duration.ofSeconds(10)))
			.isInstanceOf(WorkflowUpdateFailedException.class)
			.hasMessageContaining("closed");
		assertThatThrownBy(() -> run.b().result(Duration.ofSeconds(10)))
			.isInstanceOf(WorkflowUpdateFailedException.class)
			.hasMessageContaining("closed");
		assertThat(handle.query(AgentRun::status).goal()).as("A's activity result is never applied")
			.isEqualTo("ship v1");
		Engines.assertReplays(run.worker(), handle.runId());
	}

	@Test
	void describeCountsTheHandlersARunLeftUnfinished() throws Exception {
		Delivered run = completeWithoutDraining("agent-5-5-unfinished");
		WorkflowHandle<String> handle = run.handle();
		assertThat(handle.describe().closeTime()).isNotNull();
		// A (awaiting its activity) and B (waiting for the lock)
		assertThat(handle.describe().unfinishedHandlers()).isEqualTo(2);
		Engines.assertReplays(run.worker(), handle.runId());
	}

}
