package dev.durable.workflow.internal.runtime;

import java.util.UUID;

/**
 * Who a run is.
 *
 * @param namespace the namespace
 * @param workflowId the workflow id
 * @param runId the run id
 * @param workflowType the type name
 * @param taskQueue the task queue
 */
public record RunIdentity(String namespace, String workflowId, UUID runId, String workflowType, String taskQueue) {

}
