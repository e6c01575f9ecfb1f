package dev.durable.workflow.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.client.WorkflowStatus;

/**
 * What the runs of a namespace look like right now, as the database holds them: for
 * operators, health checks and the actuator endpoint. Read with
 * {@link WorkflowEngine#stats}.
 *
 * @param time when the numbers were read (engine clock)
 * @param runs run counts by type and status: the open runs, and the closed ones the
 * retention still keeps
 * @param backlog runnable runs waiting for a workflow task, and failing ones
 * @param failingRuns a few of the runs whose workflow task is failing, the longest
 * failing first
 * @param nodes the registered nodes (for a type: the nodes that serve it)
 */
public record EngineStats(Instant time, List<RunCount> runs, Backlog backlog, List<FailingRun> failingRuns,
		List<Node> nodes) {

	/**
	 * How many runs of a type have a status.
	 *
	 * @param workflowType the workflow type
	 * @param status the status
	 * @param count the number of runs
	 */
	public record RunCount(String workflowType, WorkflowStatus status, long count) {
	}

	/**
	 * The runs waiting for a workflow task.
	 *
	 * @param runnable open runs with new input or a due wake time (timer, start, retry)
	 * whose workflow task is not failing: the work the workers have not caught up with
	 * @param oldestWaiting how long the longest-waiting of them has waited, zero when
	 * none waits
	 * @param failing open runs whose workflow task failed at its last attempt and is
	 * retried with backoff (a bug in workflow code, a non-deterministic change, a task
	 * timeout)
	 * @param stuck failing runs whose task has failed for longer than the threshold asked
	 * for
	 * @param paused open runs an operator paused: they take no task until unpaused, and
	 * count in none of the other numbers but failing and stuck
	 */
	public record Backlog(long runnable, Duration oldestWaiting, long failing, long stuck, long paused) {
	}

	/**
	 * A run whose workflow task is failing.
	 *
	 * @param workflowId the workflow id
	 * @param runId the run id
	 * @param workflowType the workflow type
	 * @param attempts the failed attempts in a row
	 * @param reason the last failure
	 * @param failingSince when the first of these failures happened (engine clock), or
	 * {@code null} for a failure recorded before this was tracked
	 */
	public record FailingRun(String workflowId, UUID runId, String workflowType, int attempts, String reason,
			@Nullable Instant failingSince) {
	}

	/**
	 * A registered node.
	 *
	 * @param nodeId the node id, the owner of the runs it executes
	 * @param name host and process id
	 * @param buildId the build id it declared, or {@code null}
	 * @param servedTypes the workflow types it executes
	 * @param taskQueues the task queues it serves
	 * @param startedAt when it registered (database clock)
	 * @param lastHeartbeat its last heartbeat (database clock)
	 * @param alive whether its last heartbeat is more recent than the dead-after interval
	 */
	public record Node(UUID nodeId, String name, @Nullable String buildId, Set<String> servedTypes,
			Set<String> taskQueues, Instant startedAt, Instant lastHeartbeat, boolean alive) {
	}

	/** The number of runs with the status, over all types. */
	public long count(WorkflowStatus status) {
		return this.runs.stream().filter((count) -> count.status() == status).mapToLong(RunCount::count).sum();
	}

}
