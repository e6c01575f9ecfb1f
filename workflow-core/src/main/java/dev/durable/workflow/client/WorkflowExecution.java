package dev.durable.workflow.client;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * One run as listed by {@link WorkflowClient#list}.
 *
 * @param workflowId the workflow id
 * @param runId the run id
 * @param workflowType the type name
 * @param status the status
 * @param startTime when it was created
 * @param closeTime when it closed, or {@code null}
 * @param memo the memo (JSON values: maps, lists, strings, numbers, booleans)
 * @param searchAttributes the search attributes (times as {@link Instant}, whole numbers
 * as Long)
 * @param paused whether an operator paused the run ({@link WorkflowHandle#pause})
 * @param taskFailing whether the open run's workflow task is failing and retried (a bug
 * in its code, a change that does not replay): it makes no progress until fixed
 * @param summary the start's summary ({@link StartOptions#summary()}), or {@code null}
 */
public record WorkflowExecution(String workflowId, UUID runId, String workflowType, WorkflowStatus status,
		Instant startTime, @Nullable Instant closeTime, Map<String, Object> memo, Map<String, Object> searchAttributes,
		boolean paused, boolean taskFailing, @Nullable String summary) {

}
