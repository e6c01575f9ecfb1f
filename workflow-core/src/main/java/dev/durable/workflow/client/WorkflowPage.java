package dev.durable.workflow.client;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One page of {@link WorkflowClient#list}: runs newest first.
 *
 * @param executions the runs of this page
 * @param nextPageToken pass it to get the next page; {@code null} on the last page
 */
public record WorkflowPage(List<WorkflowExecution> executions, @Nullable String nextPageToken) {

}
