package dev.durable.workflow.internal.worker;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A run discarded from another thread (cache eviction, a claim at a new epoch, the node
 * declared dead) while a task, a query or activity bookkeeping holds its task lock: its
 * runner is destroyed when the holder lets go, never under it.
 */
class RunDiscardTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Workflow("discard-waiter")
	public static class Waiter {

		private boolean go;

		@WorkflowRun
		public String run() {
			Workflows.await(() -> this.go);
			return "went";
		}

		@SignalMethod
		public void go() {
			this.go = true;
		}

	}

	@Test
	void aRunnerInUseIsDestroyedWhenItsHolderLetsGo() throws Exception {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Waiter.class));
		WorkflowTaskExecutor executor = NodeInternals.executor(EngineInternals.node(engine));
		WorkflowHandle<String> handle = engine.client().start(Waiter::run, StartOptions.withId("discarded"));
		UUID runId = handle.runId();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			RunSlot slot = executor.slots().get(runId);
			return slot != null && slot.runner() != null && !slot.isBusy();
		});
		RunSlot slot = executor.slots().get(runId);

		slot.lockTask(); // as a task in progress would
		try {
			Thread other = Thread.ofPlatform().start(() -> executor.discard(slot));
			other.join(10_000);
			assertThat(slot.isDead()).isTrue();
			assertThat(slot.runner()).as("not destroyed while in use").isNotNull();
		}
		finally {
			slot.unlockTask();
		}
		assertThat(slot.runner()).as("destroyed as the holder let go").isNull();
	}

}
