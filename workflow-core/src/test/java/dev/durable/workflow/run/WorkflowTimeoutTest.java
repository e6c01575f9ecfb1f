package dev.durable.workflow.run;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.TimeoutFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Run and execution timeouts close the run TIMED_OUT, distinct from the workflow's own
 * waits.
 */
class WorkflowTimeoutTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/**
	 * Waits for a confirmation with its own deadline, then continues as new while asked
	 * to.
	 */
	@Workflow(value = "confirming", receives = { "confirm" })
	public static class Confirming {

		@WorkflowRun
		public String run(int generations) {
			String confirmation = Workflows.receive("confirm", String.class, Duration.ofHours(1)).orElse("expired");
			if (generations > 0) {
				Workflows.continueAsNew(generations - 1);
			}
			return confirmation;
		}

	}

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder().register(Confirming.class));
	}

	@Test
	void theWorkflowsOwnWaitExpiresWithoutTimingTheRunOut() {
		WorkflowHandle<String> handle = engine().client()
			.start(Confirming::run, 0,
					StartOptions.builder().workflowId("own-wait").runTimeout(Duration.ofHours(2)).build());
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("expired");
	}

	@Test
	void aRunTimeoutClosesTheRunTimedOut() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(Confirming::run, 0,
					StartOptions.builder().workflowId("run-timeout").runTimeout(Duration.ofMinutes(30)).build());
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofMinutes(30));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies(
					(ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.TIMED_OUT))
			.cause()
			.isInstanceOf(TimeoutFailure.class)
			.hasMessageContaining("workflow run timeout");
		assertThat(handle.history()).last().extracting("type").isEqualTo("WORKFLOW_TIMED_OUT");
		assertThat(this.engines.count("timer")).isZero();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void anExecutionTimeoutSpansContinueAsNew() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = engine.client()
			.start(Confirming::run, 5,
					StartOptions.builder()
						.workflowId("execution-timeout")
						.executionTimeout(Duration.ofMinutes(150))
						.build());
		// each run waits an hour for a confirmation that never comes, then continues as
		// new
		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		await().until(() -> this.engines.count("timer") == 1
				&& engine.client().handle("execution-timeout").runId() != handle.runId());
		this.engines.clock.advance(Duration.ofHours(1));
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema
					+ ".workflow_run WHERE workflow_id = 'execution-timeout'", Integer.class) == 3);
		this.engines.clock.advance(Duration.ofMinutes(30));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies(
					(ex) -> assertThat(((WorkflowFailedException) ex).getStatus()).isEqualTo(WorkflowStatus.TIMED_OUT))
			.cause()
			.hasMessageContaining("workflow execution timeout");
	}

}
