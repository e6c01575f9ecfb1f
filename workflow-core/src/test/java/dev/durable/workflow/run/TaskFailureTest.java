package dev.durable.workflow.run;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A bug in workflow code (an unexpected exception, a blocking call) fails the workflow
 * task, not the run: the run stays open and visible with the reason, and is retried with
 * backoff.
 */
public class TaskFailureTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		// first the threads the task timeout abandoned: they end with their test, not in
		// the next
		BlockingWorkflow.gate.open.countDown();
		this.engines.close();
	}

	/** Fails with a bug until the switch is flipped. */
	@Workflow("buggy")
	public static class BuggyWorkflow {

		public static volatile boolean fixed;

		@WorkflowRun
		public String run() {
			if (!fixed) {
				Object missing = null;
				return missing.toString();
			}
			return "fixed";
		}

	}

	/**
	 * Blocks its thread instead of using Workflows.sleep, until the test that started it
	 * ends: only the task timeout can end its task within the test's wait, however slow
	 * the machine. Each test has a gate of its own, so a thread abandoned by one test (it
	 * is not interrupted) cannot mark another test's gate.
	 */
	@Workflow("blocking")
	public static class BlockingWorkflow {

		static volatile Gate gate = new Gate();

		@WorkflowRun
		public String run() {
			Gate mine = gate;
			try {
				// bounded far beyond the test's wait for the failure: if the timeout did
				// not end the
				// task, the start returns at last and the test fails instead of hanging
				mine.open.await(1, TimeUnit.MINUTES);
				mine.passed = true;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return "never";
		}

	}

	/** What a test's blocking runs wait for, and whether one got past it. */
	static final class Gate {

		final CountDownLatch open = new CountDownLatch(1);

		/**
		 * Whether a run's code got past the gate (its task then did not need the timeout
		 * to end).
		 */
		volatile boolean passed;

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
		Gate gate = BlockingWorkflow.gate = new Gate();
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(BlockingWorkflow.class).taskTimeout(Duration.ofMillis(300)));
		WorkflowHandle<String> handle = engine.client().start(BlockingWorkflow::run, StartOptions.withId("blocking"));
		await().until(() -> handle.describe().taskFailure() != null);
		// the timeout ended the task while the code still blocked, not the code's own
		// return
		assertThat(gate.passed).as("the code got past its gate first").isFalse();
		assertThat(handle.describe().taskFailure()).contains("did not yield within the task timeout");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
	}

	@Test
	void aStartsOwnTaskTimeoutOverridesTheEngines() {
		// the engine's limit outlasts the test's wait; this workflow's own limit is
		// shorter
		BlockingWorkflow.gate = new Gate();
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(BlockingWorkflow.class).taskTimeout(Duration.ofMinutes(5)));
		WorkflowHandle<String> handle = engine.client()
			.start(BlockingWorkflow::run,
					StartOptions.builder()
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
