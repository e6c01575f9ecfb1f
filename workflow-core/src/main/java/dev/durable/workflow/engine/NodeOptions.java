package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.VersioningBehavior;

/**
 * The node options {@link WorkflowEngine.Builder} collects: how the node works (worker,
 * queues, concurrency, caching, polling), how it lives among the other nodes (heartbeat,
 * dead-after, build id) and how long runs and their history are kept. Becomes
 * {@link EngineSettings}.
 */
final class NodeOptions {

	// the worker
	private boolean worker = true;

	private Set<String> taskQueues = new LinkedHashSet<>(List.of(EngineSettings.DEFAULT_TASK_QUEUE));

	private boolean runWorkflows = true;

	private Set<String> activityTaskQueues = new LinkedHashSet<>();

	private final Map<String, QueueDefinition> queues = new LinkedHashMap<>();

	private int maxConcurrentActivities = 100;

	private int maxCachedRuns = 1000;

	private Duration cacheIdleTimeout = Duration.ofMinutes(10);

	private Duration pollInterval = Duration.ofSeconds(1);

	private Duration taskTimeout = Duration.ofSeconds(10);

	private Duration shutdownTimeout = Duration.ofSeconds(30);

	// the node among the others
	private Duration heartbeatInterval = Duration.ofSeconds(5);

	private Duration deadAfter = Duration.ofSeconds(30);

	private @Nullable String buildId;

	private VersioningBehavior defaultVersioning = VersioningBehavior.AUTO_UPGRADE;

	private final Map<String, Duration> moveStrandedAfter = new LinkedHashMap<>();

	private @Nullable Duration statementTimeout;

	private @Nullable Duration idleInTransactionTimeout;

	// runs and their history
	private EngineSettings.HistoryLimits historyLimits = EngineSettings.HistoryLimits.DEFAULT;

	private Duration retention = Duration.ofDays(7);

	// workflow code
	private List<Class<? extends Throwable>> failWorkflowExceptionTypes = List.of();

	void worker(boolean enabled) {
		this.worker = enabled;
	}

	void taskQueues(String... queues) {
		this.taskQueues = new LinkedHashSet<>(List.of(queues));
	}

	void runWorkflows(boolean enabled) {
		this.runWorkflows = enabled;
	}

	void activityTaskQueues(String... queues) {
		this.activityTaskQueues = new LinkedHashSet<>(List.of(queues));
	}

	void queue(QueueDefinition queue) {
		this.queues.put(queue.name(), queue);
	}

	void maxConcurrentActivities(int value) {
		this.maxConcurrentActivities = value;
	}

	void maxCachedRuns(int value) {
		this.maxCachedRuns = value;
	}

	void cacheIdleTimeout(Duration value) {
		this.cacheIdleTimeout = value;
	}

	void pollInterval(Duration value) {
		this.pollInterval = value;
	}

	void heartbeatInterval(Duration value) {
		this.heartbeatInterval = value;
	}

	void deadAfter(Duration value) {
		this.deadAfter = value;
	}

	void statementTimeout(Duration value) {
		this.statementTimeout = value;
	}

	void idleInTransactionTimeout(Duration value) {
		this.idleInTransactionTimeout = value;
	}

	void taskTimeout(Duration value) {
		this.taskTimeout = value;
	}

	void shutdownTimeout(Duration value) {
		this.shutdownTimeout = value;
	}

	void buildId(@Nullable String buildId) {
		this.buildId = buildId;
	}

	void defaultVersioning(VersioningBehavior behavior) {
		this.defaultVersioning = behavior;
	}

	void moveStrandedAfter(String workflowType, Duration after) {
		this.moveStrandedAfter.put(workflowType, after);
	}

	void historyLimits(long suggestEvents, long suggestBytes, long maxEvents, long maxBytes) {
		this.historyLimits = new EngineSettings.HistoryLimits(suggestEvents, suggestBytes, maxEvents, maxBytes);
	}

	void retention(Duration value) {
		this.retention = value;
	}

	@SafeVarargs
	final void failWorkflowExceptionTypes(Class<? extends Throwable>... types) {
		this.failWorkflowExceptionTypes = List.of(types);
	}

	EngineSettings settings(String namespace, String schema, int maxPayloadBytes) {
		return new EngineSettings(namespace, schema, this.worker, Set.copyOf(this.taskQueues),
				this.maxConcurrentActivities, this.maxCachedRuns, this.cacheIdleTimeout, this.pollInterval,
				this.heartbeatInterval, this.deadAfter, this.taskTimeout, maxPayloadBytes, this.shutdownTimeout,
				this.buildId, this.historyLimits, this.retention, this.runWorkflows, this.activityTaskQueues,
				List.copyOf(this.queues.values()), this.failWorkflowExceptionTypes, this.statementTimeout,
				this.idleInTransactionTimeout,
				new EngineSettings.Versioning(this.defaultVersioning, this.moveStrandedAfter));
	}

}
