package dev.durable.workflow.internal.batch;

import java.time.Duration;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.ActivityOptions;

/**
 * The engine's own workflow that carries out a batch: one activity per page of matching
 * runs, each recorded in the history, so after a crash or a restart the run resumes at
 * the page it was on (the batch row says where that page starts). Long batches continue
 * as new when the history grows past the suggested size. Registered by the engine
 * wherever workflows run; hidden from the type listings. No constructor parameters, so
 * any workflow factory can create it.
 */
@Workflow(BatchWorkflow.TYPE)
public class BatchWorkflow {

	/** The type name. */
	public static final String TYPE = "durable-batch";

	/**
	 * A page may take a while (each run is a transaction); a failed attempt (the database
	 * away, say) is retried until it succeeds, backing off to a minute.
	 */
	static final ActivityOptions PAGE = ActivityOptions.builder()
		.startToCloseTimeout(Duration.ofMinutes(10))
		.retryPolicy(RetryPolicy.builder().maximumInterval(Duration.ofMinutes(1)).build())
		.build();

	/** The workflow id of a batch's run. */
	public static String workflowId(String batchId) {
		return TYPE + ":" + batchId;
	}

	@WorkflowRun
	public long run(String batchId) {
		BatchActivities pages = Workflows.activities(BatchActivities.class, PAGE);
		long done = 0;
		while (pages.processPage(batchId)) {
			done++;
			if (Workflows.info().continueAsNewSuggested()) {
				Workflows.continueAsNew(batchId);
			}
		}
		return done + 1;
	}

}
