package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import dev.durable.workflow.client.BuildStatus;
import dev.durable.workflow.client.TopicStatus;
import dev.durable.workflow.engine.EngineStats;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.web.QueueSummary;

/**
 * The {@code workflows} actuator endpoint: runs by type and status, the backlog of
 * runnable runs and how long the oldest has waited, runs whose workflow task is failing
 * (a few examples) and stuck ones, the registered nodes and the queues;
 * {@code /workflows/{type}} narrows the runs and nodes to one workflow type.
 */
@Endpoint(id = "workflows")
public class WorkflowsEndpoint {

	private final WorkflowEngine engine;

	private final Duration stuckAfter;

	/**
	 * Creates the endpoint.
	 * @param engine the engine whose namespace is described
	 * @param stuckAfter how long a workflow task must have been failing for its run to
	 * count as stuck
	 */
	public WorkflowsEndpoint(WorkflowEngine engine, Duration stuckAfter) {
		this.engine = engine;
		this.stuckAfter = stuckAfter;
	}

	/** Everything of the engine's namespace. */
	@ReadOperation
	public WorkflowsDescriptor workflows() {
		return describe(this.engine.stats(null, this.stuckAfter));
	}

	/**
	 * The runs of one workflow type, and the nodes that serve it; {@code null} (404) for
	 * a type no node serves and no run has.
	 */
	@ReadOperation
	public @Nullable WorkflowsDescriptor workflowType(@Selector String type) {
		EngineStats stats = this.engine.stats(type, this.stuckAfter);
		boolean known = !stats.runs().isEmpty()
				|| this.engine.workflowTypes().stream().anyMatch((info) -> info.name().equals(type))
				|| stats.nodes().stream().anyMatch((node) -> node.servedTypes().contains(type));
		return known ? describe(stats) : null;
	}

	private WorkflowsDescriptor describe(EngineStats stats) {
		Map<String, Map<String, Long>> runs = new TreeMap<>();
		for (EngineStats.RunCount count : stats.runs()) {
			runs.computeIfAbsent(count.workflowType(), (key) -> new TreeMap<>())
				.put(count.status().name(), count.count());
		}
		EngineStats.Backlog backlog = stats.backlog();
		return new WorkflowsDescriptor(stats.time(),
				new NodeDescriptor(this.engine.nodeId(), this.engine.isRunning(), this.engine.cachedRuns()), runs,
				new BacklogDescriptor(backlog.runnable(), backlog.oldestWaiting().toString(),
						backlog.oldestWaiting().toMillis() / 1000.0, backlog.failing(), backlog.stuck(),
						this.stuckAfter.toString(), backlog.paused()),
				stats.failingRuns(), stats.nodes(), QueueSummary.of(this.engine.queues()),
				this.engine.client().builds().list(), this.engine.client().topics());
	}

	/**
	 * What the endpoint returns.
	 *
	 * @param time when it was read (engine clock)
	 * @param thisNode the node that answers
	 * @param runs run counts by workflow type, then by status (open runs, and closed ones
	 * the retention keeps)
	 * @param backlog the backlog, failing and stuck runs
	 * @param failingRuns a few runs whose workflow task is failing, the longest failing
	 * first
	 * @param nodes the registered nodes
	 * @param queues the queues of the namespace and what each holds (all of them, also
	 * for one workflow type: a queue is not a type's), as {@code GET {base-path}/queues}
	 * lists them
	 * @param builds the builds of the namespace and their drain status (stranded runs
	 * included), as {@code GET {base-path}/builds} lists them
	 * @param topics the event topics of the namespace with their waiting runs, as
	 * {@code GET {base-path}/topics} lists them
	 */
	public record WorkflowsDescriptor(Instant time, NodeDescriptor thisNode, Map<String, Map<String, Long>> runs,
			BacklogDescriptor backlog, List<EngineStats.FailingRun> failingRuns, List<EngineStats.Node> nodes,
			List<QueueSummary> queues, List<BuildStatus> builds, List<TopicStatus> topics) {
	}

	/**
	 * The answering node.
	 *
	 * @param nodeId its id
	 * @param running whether its engine runs
	 * @param cachedRuns the runs it holds in memory
	 */
	public record NodeDescriptor(UUID nodeId, boolean running, int cachedRuns) {
	}

	/**
	 * The backlog.
	 *
	 * @param runnable runnable runs waiting for a workflow task
	 * @param oldestWaiting how long the oldest of them has waited (ISO-8601)
	 * @param oldestWaitingSeconds the same in seconds
	 * @param failing runs whose workflow task is failing
	 * @param stuck runs whose workflow task has been failing for longer than stuckAfter
	 * @param stuckAfter the stuck threshold (ISO-8601)
	 * @param paused open runs an operator paused
	 */
	public record BacklogDescriptor(long runnable, String oldestWaiting, double oldestWaitingSeconds, long failing,
			long stuck, String stuckAfter, long paused) {
	}

}
