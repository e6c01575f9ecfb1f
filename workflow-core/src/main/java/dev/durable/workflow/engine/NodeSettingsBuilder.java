package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.Workflow;

/**
 * The node settings part of {@link WorkflowEngine.Builder}: how the node works (worker,
 * queues, concurrency, caching, polling), how it lives among the other nodes (heartbeat,
 * dead-after, build id) and how long runs and their history are kept. Becomes
 * {@link EngineSettings}.
 *
 * @param <B> the builder type its methods return
 */
abstract class NodeSettingsBuilder<B extends NodeSettingsBuilder<B>> {

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

	private @Nullable Duration statementTimeout;

	private @Nullable Duration idleInTransactionTimeout;

	// runs and their history
	private EngineSettings.HistoryLimits historyLimits = EngineSettings.HistoryLimits.DEFAULT;

	private Duration retention = Duration.ofDays(7);

	// workflow code
	private List<Class<? extends Throwable>> failWorkflowExceptionTypes = List.of();

	abstract B self();

	/** Whether this node executes workflows; false makes it a client only. */
	public B worker(boolean enabled) {
		this.worker = enabled;
		return self();
	}

	public B taskQueues(String... queues) {
		this.taskQueues = new LinkedHashSet<>(List.of(queues));
		return self();
	}

	/**
	 * Whether this worker node runs workflows (default true); false: a worker-only node.
	 */
	public B runWorkflows(boolean enabled) {
		this.runWorkflows = enabled;
		return self();
	}

	/** The activity task queues this node claims activities from (default none). */
	public B activityTaskQueues(String... queues) {
		this.activityTaskQueues = new LinkedHashSet<>(List.of(queues));
		return self();
	}

	/**
	 * Declares a flow-control queue (see {@link QueueDefinition}); a later one of the
	 * same name replaces it.
	 */
	public B queue(QueueDefinition queue) {
		this.queues.put(queue.name(), queue);
		return self();
	}

	public B maxConcurrentActivities(int value) {
		this.maxConcurrentActivities = value;
		return self();
	}

	public B maxCachedRuns(int value) {
		this.maxCachedRuns = value;
		return self();
	}

	public B cacheIdleTimeout(Duration value) {
		this.cacheIdleTimeout = value;
		return self();
	}

	public B pollInterval(Duration value) {
		this.pollInterval = value;
		return self();
	}

	public B heartbeatInterval(Duration value) {
		this.heartbeatInterval = value;
		return self();
	}

	/**
	 * Silence after which other nodes take over this node's runs. The node itself stops
	 * working one heartbeat interval earlier when its heartbeats get no answer (see
	 * {@link EngineSettings#lease()}).
	 */
	public B deadAfter(Duration value) {
		this.deadAfter = value;
		return self();
	}

	/**
	 * How long one of the engine's statements may wait for the database's answer (the
	 * network timeout of the connections the engine takes from the data source, restored
	 * when it gives them back); past it the statement fails as if the database were
	 * unreachable. A network partition drops packets rather than closing connections, so
	 * without it a statement would wait for TCP to give up. Default: ten seconds, or
	 * {@link EngineSettings#lease()} when that is shorter.
	 */
	public B statementTimeout(Duration value) {
		this.statementTimeout = value;
		return self();
	}

	/**
	 * How long the database lets one of the engine's sessions stay idle inside a
	 * transaction before it ends the session (PostgreSQL's
	 * {@code idle_in_transaction_session_timeout}), set together with TCP keepalives and
	 * a TCP user timeout that follow the statement timeout (a third of it idle, then two
	 * probes a second apart; they end only sessions whose peer is gone). A node cut off
	 * by a network partition cannot roll back its open transactions, and the server is
	 * not told it is gone: without them their locks would hold the statements of healthy
	 * nodes until TCP gives up. Each physical connection gets the settings once, the
	 * first time the engine takes it; they are session settings, so the application's own
	 * transactions on the same pooled connections are ended too when they stay idle that
	 * long (a transactional activity's transaction included). Zero turns all the settings
	 * off (for a transaction-pooling proxy, whose own timeouts then apply). Default: the
	 * lease (dead-after minus the heartbeat interval), at least a second.
	 */
	public B idleInTransactionTimeout(Duration value) {
		this.idleInTransactionTimeout = value;
		return self();
	}

	/** How long workflow code may run without yielding in one workflow task. */
	public B taskTimeout(Duration value) {
		this.taskTimeout = value;
		return self();
	}

	public B shutdownTimeout(Duration value) {
		this.shutdownTimeout = value;
		return self();
	}

	public B buildId(@Nullable String buildId) {
		this.buildId = buildId;
		return self();
	}

	/**
	 * History thresholds: past {@code suggestEvents} events or {@code suggestBytes} bytes
	 * {@code Workflows.info().continueAsNewSuggested()} turns true; past
	 * {@code maxEvents} or {@code maxBytes} the run is terminated. Defaults: 4,096 / 4 MB
	 * and 51,200 / 50 MB.
	 */
	public B historyLimits(long suggestEvents, long suggestBytes, long maxEvents, long maxBytes) {
		this.historyLimits = new EngineSettings.HistoryLimits(suggestEvents, suggestBytes, maxEvents, maxBytes);
		return self();
	}

	/**
	 * How long closed runs, their history and deduplication records are kept (default 7
	 * days); then worker nodes delete them in small batches. Zero or negative keeps them
	 * forever.
	 */
	public B retention(Duration value) {
		this.retention = value;
		return self();
	}

	/**
	 * Exception types that fail the run when the workflow code of any type throws them
	 * (instances of subclasses included), instead of failing the workflow task and
	 * retrying it (default none). Added to each workflow's own
	 * {@link Workflow#failWorkflowExceptionTypes()}.
	 */
	@SafeVarargs
	public final B failWorkflowExceptionTypes(Class<? extends Throwable>... types) {
		this.failWorkflowExceptionTypes = List.of(types);
		return self();
	}

	EngineSettings settings(String namespace, String schema, int maxPayloadBytes) {
		return new EngineSettings(namespace, schema, this.worker, Set.copyOf(this.taskQueues),
				this.maxConcurrentActivities, this.maxCachedRuns, this.cacheIdleTimeout, this.pollInterval,
				this.heartbeatInterval, this.deadAfter, this.taskTimeout, maxPayloadBytes, this.shutdownTimeout,
				this.buildId, this.historyLimits, this.retention, this.runWorkflows, this.activityTaskQueues,
				List.copyOf(this.queues.values()), this.failWorkflowExceptionTypes, this.statementTimeout,
				this.idleInTransactionTimeout);
	}

}
