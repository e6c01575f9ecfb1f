package dev.durable.workflow.start;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The first event of a run says how long its first workflow task waited (Temporal's
 * firstWorkflowTaskBackoff).
 */
class FirstWorkflowTaskBackoffTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Workflow("backoff")
	public static class BackoffWorkflow {

		@WorkflowRun
		public String run(String input) {
			return input;
		}

	}

	private static HistoryEvent started(WorkflowHandle<?> handle) {
		return handle.history().get(0);
	}

	@Test
	void aDelayedStartRecordsItsDelay() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(BackoffWorkflow.class));
		WorkflowHandle<String> handle = engine.client()
			.start(BackoffWorkflow::run, "later",
					StartOptions.builder().workflowId("backoff-1").startDelay(Duration.ofHours(2)).build());
		this.engines.clock.advance(Duration.ofHours(2));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("later");
		HistoryEvent started = started(handle);
		assertThat(started.type()).isEqualTo("WORKFLOW_STARTED");
		assertThat(started.attributes()).containsEntry("firstWorkflowTaskBackoff", "PT2H");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aStartWithoutDelayRecordsNone() {
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(BackoffWorkflow.class));
		WorkflowHandle<String> handle = engine.client()
			.start(BackoffWorkflow::run, "now", StartOptions.withId("backoff-2"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("now");
		await().until(() -> !handle.history().isEmpty());
		assertThat(started(handle).attributes()).doesNotContainKey("firstWorkflowTaskBackoff");
	}

}
