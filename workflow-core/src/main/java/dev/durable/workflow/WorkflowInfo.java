package dev.durable.workflow;

import java.util.UUID;

/**
 * Facts about the current run.
 *
 * @param namespace the namespace
 * @param workflowId the workflow id
 * @param runId the run id
 * @param workflowType the workflow type name
 * @param taskQueue the task queue
 * @param historyLength the number of events recorded so far
 * @param continueAsNewSuggested whether the history is past the suggested size
 */
public record WorkflowInfo(String namespace, String workflowId, UUID runId, String workflowType, String taskQueue,
		long historyLength, boolean continueAsNewSuggested) {

}
