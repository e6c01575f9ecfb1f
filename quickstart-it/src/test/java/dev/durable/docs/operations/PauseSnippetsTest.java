package dev.durable.docs.operations;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.test.TestWorkflowEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The operations guide's pause, run against open orders. */
class PauseSnippetsTest {

	/** An order that waits a day for its payment. */
	@Workflow("order")
	public static class WaitingOrder {

		@WorkflowRun
		public String run(String id) {
			Workflows.sleep(Duration.ofDays(1));
			return id;
		}

	}

	@Test
	void pauseListAndUnpause() {
		try (TestWorkflowEnvironment env = TestWorkflowEnvironment.builder()
			.registerWorkflows(WaitingOrder.class)
			.autoTimeSkipping(false)
			.build()) {
			WorkflowClient client = env.client();
			client.start(WaitingOrder::run, "42", StartOptions.withId("order-42"));
			client.start(WaitingOrder::run, "43", StartOptions.withId("order-43"));
			// @formatter:off
			// snippet:operations-pause
			WorkflowHandle<Object> order = client.handle("order-42");
			order.pause("payment provider outage");                   // false when it was paused already
			order.describe().pausedAt();                              // since when; pauseReason() says why
			client.startBatch(BatchRequest.pause(WorkflowFilter.ofType("order"), "payment provider outage"));
			client.list(WorkflowFilter.all().paused(true), 100, null); // the paused runs
			order.unpause();
			// end-snippet
			// @formatter:on
			// the batch runs on its own: it pauses order-43 (and order-42 again, when it
			// gets
			// there after the unpause)
			await().until(() -> client.handle("order-43").describe().paused());
			assertThat(client.list(WorkflowFilter.all().paused(true), 100, null).executions())
				.extracting((run) -> run.workflowId())
				.contains("order-43");
		}
	}

}
