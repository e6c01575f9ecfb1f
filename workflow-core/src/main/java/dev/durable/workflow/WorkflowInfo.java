package dev.durable.workflow;

import java.util.Map;
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
 * @param searchAttributes the run's search attributes: those it started with and its
 * upserts so far (times as Instant, whole numbers as Long)
 * @param memo the run's memo: the one it started with and its upserts so far
 */
public record WorkflowInfo(String namespace, String workflowId, UUID runId, String workflowType, String taskQueue,
		long historyLength, boolean continueAsNewSuggested, Map<String, Object> searchAttributes,
		Map<String, Object> memo) {

}
