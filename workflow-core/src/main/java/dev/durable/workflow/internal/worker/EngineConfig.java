package dev.durable.workflow.internal.worker;

import java.time.Duration;
import java.util.Set;

/**
 * Engine settings.
 *
 * @param namespace the namespace of every run this engine starts and serves
 * @param schema the database schema
 * @param workerEnabled whether this node executes workflows (false: client only)
 * @param taskQueues the task queues this node serves
 * @param maxConcurrentActivities activity attempts running at once
 * @param maxCachedRuns runs kept in memory between tasks
 * @param cacheIdleTimeout how long an idle cached run stays in memory
 * @param pollInterval how often the node looks for claimable runs
 * @param heartbeatInterval how often the node heartbeats
 * @param deadAfter silence after which a node counts as dead
 * @param taskTimeout how long workflow code may run without yielding in one task
 * @param maxPayloadBytes the payload size limit
 * @param shutdownTimeout how long shutdown waits for running activities
 * @param buildId an optional build id, recorded on the node row
 */
public record EngineConfig(String namespace, String schema, boolean workerEnabled, Set<String> taskQueues,
		int maxConcurrentActivities, int maxCachedRuns, Duration cacheIdleTimeout, Duration pollInterval,
		Duration heartbeatInterval, Duration deadAfter, Duration taskTimeout, int maxPayloadBytes,
		Duration shutdownTimeout, String buildId) {

	public static final String DEFAULT_TASK_QUEUE = "default";

}
