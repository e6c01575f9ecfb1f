package dev.durable.docs.schedules;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.batch.BatchStatus;
import dev.durable.workflow.test.TestWorkflowEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** The snippets of {@code docs/schedules-and-batches.md}, run. */
class SchedulesGuideTest {

	@Test
	void schedulesAreCreatedOperatedAndDeleted() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(ReportWorkflow.class, SyncWorkflow.class);
			WorkflowClient client = env.client();
			SchedulesGuideSnippets.schedules(client, new ReportRequest("nightly"));
			assertThat(client.schedules().list()).extracting("scheduleId")
				.containsExactlyInAnyOrder("sync", "office-sync");
		}
	}

	@Test
	void aBatchSignalsTheRunsAFilterMatches() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.create()) {
			env.registerWorkflows(ReportWorkflow.class);
			BatchStatus batch = SchedulesGuideSnippets.batch(env.client());
			assertThat(batch.batchId()).isEqualTo("carrier-switch-2026-12");
		}
	}

}
