package dev.durable.docs.activities;

import javax.sql.DataSource;

import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;

/**
 * The statements of the Java blocks of {@code docs/activities.md}, each in a method whose
 * parameters are the variables it uses.
 */
final class ActivitiesGuideSnippets {

	private ActivitiesGuideSnippets() {
	}

	static void taskQueues(DataSource ds) {
		// @formatter:off
		// snippet:activities-task-queues part 2
		// the web nodes run the workflows; they need only the interface (no implementation of it)
		WorkflowEngine.builder().dataSource(ds).register(RenderWorkflow.class).build().start();

		// a GPU machine runs no workflow, only the activities of its queue
		WorkflowEngine.builder().dataSource(ds)
		    .runWorkflows(false)                  // a worker-only node
		    .activityTaskQueues("gpu")            // the queues it claims from
		    .registerActivities(new GpuRendering())
		    .build().start();
		// end-snippet
		// @formatter:on
	}

	static void completeLater(WorkflowClient client, String token) {
		// @formatter:off
		// snippet:activities-async-completion part 2
		// later, anywhere (another node, a webhook handler):
		ActivityCompletionClient completions = client.activityCompletion();
		completions.heartbeat(token, "reviewer opened it"); // false once the attempt is not awaited
		completions.complete(token, "approved");            // true: this call completed it
		completions.fail(token, ApplicationFailure.newFailure("rejected", "Rejected"));
		// end-snippet
		// @formatter:on
	}

}
