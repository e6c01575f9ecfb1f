package dev.durable.workflow.internal.store;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/**
 * A run to insert.
 *
 * @param runId run id
 * @param namespace namespace
 * @param workflowId workflow id
 * @param workflowType type name
 * @param taskQueue task queue
 * @param owner owning node when the starting node serves the type, else {@code null}
 * @param input encoded input
 * @param requestId request id for start deduplication, or {@code null}
 * @param createdAt creation time
 * @param wakeAt the delayed start time, or {@code null} for now
 * @param runDeadline when the run times out, or {@code null}
 * @param executionDeadline when the execution (continue-as-new chain) times out, or
 * {@code null}
 * @param chain workflow retry policy and cron schedule, or {@code null}
 * @param attempt the attempt number (workflow retries)
 * @param memo the memo it starts with, in stored form (Attributes)
 * @param searchAttributes the search attributes it starts with, in stored form
 * @param build the build it belongs to
 */
public record NewRun(UUID runId, String namespace, String workflowId, String workflowType, String taskQueue, UUID owner,
		byte[] input, String requestId, Instant createdAt, Instant wakeAt, Instant runDeadline,
		Instant executionDeadline, RunChain chain, int attempt, Map<String, Object> memo,
		Map<String, Object> searchAttributes, BuildAssignment build) {

	public NewRun {
		memo = (memo != null) ? memo : Map.of();
		searchAttributes = (searchAttributes != null) ? searchAttributes : Map.of();
		build = (build != null) ? build : BuildAssignment.UNVERSIONED;
	}

	/** A run without memo and search attributes. */
	public NewRun(UUID runId, String namespace, String workflowId, String workflowType, String taskQueue, UUID owner,
			byte[] input, String requestId, Instant createdAt, Instant wakeAt, Instant runDeadline,
			Instant executionDeadline, RunChain chain, int attempt) {
		this(runId, namespace, workflowId, workflowType, taskQueue, owner, input, requestId, createdAt, wakeAt,
				runDeadline, executionDeadline, chain, attempt, null, null, null);
	}

	/** This run with a memo and search attributes (stored form). */
	public NewRun withAttributes(Map<String, Object> memo, Map<String, Object> searchAttributes) {
		return new NewRun(this.runId, this.namespace, this.workflowId, this.workflowType, this.taskQueue, this.owner,
				this.input, this.requestId, this.createdAt, this.wakeAt, this.runDeadline, this.executionDeadline,
				this.chain, this.attempt, memo, searchAttributes, this.build);
	}

	/** This run, belonging to the given build. */
	public NewRun withBuild(BuildAssignment runBuild) {
		return new NewRun(this.runId, this.namespace, this.workflowId, this.workflowType, this.taskQueue, this.owner,
				this.input, this.requestId, this.createdAt, this.wakeAt, this.runDeadline, this.executionDeadline,
				this.chain, this.attempt, this.memo, this.searchAttributes, runBuild);
	}

	/** A run with timeouts, outside any chain. */
	public NewRun(UUID runId, String namespace, String workflowId, String workflowType, String taskQueue, UUID owner,
			byte[] input, String requestId, Instant createdAt, Instant wakeAt, Instant runDeadline,
			Instant executionDeadline) {
		this(runId, namespace, workflowId, workflowType, taskQueue, owner, input, requestId, createdAt, wakeAt,
				runDeadline, executionDeadline, null, 1);
	}

	/** A run without timeouts. */
	public NewRun(UUID runId, String namespace, String workflowId, String workflowType, String taskQueue, UUID owner,
			byte[] input, String requestId, Instant createdAt, Instant wakeAt) {
		this(runId, namespace, workflowId, workflowType, taskQueue, owner, input, requestId, createdAt, wakeAt, null,
				null, null, 1);
	}

}
