package dev.durable.workflow;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A bug in workflow code (an unexpected exception, a blocking call) fails the workflow task, not
 * the run: the run stays open and visible with the reason, and is retried with backoff.
 */
class TaskFailureTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Fails with a bug until the switch is flipped. */
	@Workflow("buggy")
	public static class BuggyWorkflow {

		static volatile boolean fixed;

		@WorkflowRun
		public String run() {
			if (!fixed) {
				Object missing = null;
				return missing.toString();
			}
			return "fixed";
		}

	}

	/** Blocks its thread instead of using Workflows.sleep. */
	@Workflow("blocking")
	public static class BlockingWorkflow {

		/** Whether a run's code got past its sleep (the task then did not need the timeout to end). */
		static volatile boolean sleptThrough;

		@WorkflowRun
		public String run() {
			try {
				Thread.sleep(3_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			sleptThrough = true;
			return "never";
		}

	}

	@Test
	void anUnexpectedExceptionFailsTheTaskAndTheRunRecoversOnceFixed() {
		BuggyWorkflow.fixed = false;
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(BuggyWorkflow.class));
		WorkflowHandle<String> handle = engine.client().start(BuggyWorkflow::run, StartOptions.withId("buggy"));
		await().until(() -> handle.describe().taskFailure() != null);
		WorkflowDescription stuck = handle.describe();
		assertThat(stuck.status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(stuck.taskFailure()).contains("NullPointerException");
		assertThat(this.engines.count("history")).isZero();
		BuggyWorkflow.fixed = true;
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("fixed");
		assertThat(handle.describe().taskFailure()).isNull();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void codeThatDoesNotYieldFailsTheTaskAfterTheTaskTimeout() {
		BlockingWorkflow.sleptThrough = false;
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(BlockingWorkflow.class).taskTimeout(Duration.ofMillis(300)));
		WorkflowHandle<String> handle = engine.client().start(BlockingWorkflow::run, StartOptions.withId("blocking"));
		await().until(() -> handle.describe().taskFailure() != null);
		// the timeout ended the task while the code still blocked, not the code's own return
		assertThat(BlockingWorkflow.sleptThrough).as("the code got past its sleep first").isFalse();
		assertThat(handle.describe().taskFailure()).contains("did not yield within the task timeout");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
	}

	@Test
	void aStartsOwnTaskTimeoutOverridesTheEngines() {
		// the engine would let the three-second task finish; this workflow's own limit is shorter
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(BlockingWorkflow.class));
		WorkflowHandle<String> handle = engine.client()
			.start(BlockingWorkflow::run, StartOptions.builder()
				.workflowId("blocking-own-timeout")
				.taskTimeout(Duration.ofMillis(300))
				.build());
		await().until(() -> handle.describe().taskFailure() != null);
		assertThat(handle.describe().taskFailure()).contains("did not yield within the task timeout");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThatThrownBy(() -> StartOptions.builder().taskTimeout(Duration.ZERO).build())
			.isInstanceOf(IllegalArgumentException.class);
	}

}
