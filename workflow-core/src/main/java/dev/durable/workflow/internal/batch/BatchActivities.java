package dev.durable.workflow.internal.batch;

import dev.durable.workflow.activity.Activity;

/** The activity of a batch run: one page of matching runs per call. */
@Activity(namePrefix = "durable-batch.")
public interface BatchActivities {

	/**
	 * Applies the batch's operation to its next page of runs and records the page's
	 * progress.
	 * @param batchId the batch
	 * @return whether there is more to do (false once the batch completed, was canceled
	 * or failed)
	 */
	boolean processPage(String batchId);

}
