package dev.durable.docs.workflows;

import dev.durable.workflow.activity.Activity;

/** The activity the guide's semaphore guards. */
@Activity
public interface Training {

	void train(String modelId, String slot, String runId);

}
