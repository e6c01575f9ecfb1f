package dev.durable.workflow.batch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.batch.BatchState;
import dev.durable.workflow.client.batch.BatchStatus;

import static org.awaitility.Awaitility.await;

/** Workflows a batch works on, and waiting for a batch to close. */
final class BatchFixture {

	private BatchFixture() {
	}

	/** Waits for pokes until told to finish; answers how many it got. */
	@Workflow("batch-target")
	public static class Target {

		private final List<String> pokes = new ArrayList<>();

		private boolean done;

		@WorkflowRun
		public List<String> run(String input) {
			Workflows.await(() -> this.done);
			return this.pokes;
		}

		@SignalMethod
		public void poke(String note) {
			this.pokes.add(note);
		}

		@SignalMethod
		public void finish() {
			this.done = true;
		}

		@QueryMethod
		public List<String> pokes() {
			return this.pokes;
		}

	}

	/** Another type, without a poke signal. */
	@Workflow("batch-other")
	public static class Other {

		@WorkflowRun
		public void run() {
			Workflows.await(() -> false);
		}

	}

	static WorkflowHandle<List<String>> target(WorkflowClient client, String workflowId, String group) {
		return client.start(Target::run, workflowId,
				StartOptions.withId(workflowId).toBuilder().searchAttributes(Map.of("group", group)).build());
	}

	@SuppressWarnings("unchecked")
	static List<String> pokes(WorkflowClient client, String workflowId) {
		return client.handle(workflowId).query("pokes", null, List.class);
	}

	static BatchStatus closed(WorkflowClient client, String batchId) {
		await().atMost(Duration.ofSeconds(30)).until(() -> client.describeBatch(batchId).state() != BatchState.RUNNING);
		return client.describeBatch(batchId);
	}

}
