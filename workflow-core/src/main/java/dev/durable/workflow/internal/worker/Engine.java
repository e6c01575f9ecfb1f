package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.node.NodeLease;
import dev.durable.workflow.internal.node.NodeService;
import dev.durable.workflow.internal.node.NodeServices;
import dev.durable.workflow.internal.queue.QueueWaker;
import dev.durable.workflow.internal.registry.WorkflowDefinition;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.replay.HistoryImport;
import dev.durable.workflow.internal.runtime.RunIdentity;
import dev.durable.workflow.internal.store.DatabaseClock;
import dev.durable.workflow.internal.store.EngineDataSource;
import dev.durable.workflow.internal.store.PooledStatementsCheck;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.versioning.BuildRouter;
import dev.durable.workflow.internal.store.SchemaMigrator;

/**
 * One node of the engine, as the client and the public API see it: it starts and stops,
 * and while it runs it serves through the {@link NodeRuntime} that each start wires (the
 * task executor, the activity executor, and the node's background services).
 */
public final class Engine implements LocalNode, RunWaker, QueueWaker {

	private static final Logger log = LoggerFactory.getLogger(Engine.class);

	/**
	 * How long {@link #start()} keeps trying to read the database's clock before it
	 * fails: the engine serves only once its times are on the database's clock.
	 */
	private static final Duration CLOCK_PATIENCE = Duration.ofMinutes(1);

	private final NodeWiring node;

	private volatile boolean running;

	/**
	 * What the last start wired (it stays while the node stops, for the work that ends
	 * under the stop); {@code null} until the node first starts.
	 */
	private volatile NodeRuntime runtime;

	/**
	 * @param node the parts of the node that outlive its starts
	 */
	public Engine(NodeWiring node) {
		this.node = node;
	}

	/**
	 * Adds a service that every start of a worker node starts after its own services and
	 * stops before them; before the node first starts.
	 */
	public void addWorkerService(NodeService service) {
		this.node.workerServices.add(service);
	}

	/**
	 * Adds a step that a worker node runs after each dispatch of topic events (and at
	 * least every five poll intervals); before the node first starts.
	 */
	public void addTopicStep(Runnable step) {
		this.node.topicSteps.add(step);
	}

	public synchronized void start() {
		if (this.running) {
			return;
		}
		EngineSettings config = this.node.config;
		// with a transaction-mode pooler in front, the pooled data source must keep
		// prepared statements working; the migration runs over the direct one, since
		// Liquibase and its advisory lock are session state
		if (this.node.directDataSource != this.node.dataSource) {
			PooledStatementsCheck.verify(this.node.dataSource);
		}
		SchemaMigrator schema = new SchemaMigrator(this.node.directDataSource, config.schema());
		if (this.node.migrate) {
			schema.migrate();
		}
		else {
			schema.requireCurrent();
		}
		// before anything is scheduled: the first times written are on the database's
		// clock, so the engine does not serve until a measurement succeeded
		if (this.node.clock instanceof DatabaseClock database) {
			database.measureFirst(CLOCK_PATIENCE);
		}
		NodeRuntime started = new NodeRuntime(this.node);
		this.runtime = started;
		this.running = true;
		started.services.start();
		log.info("Durable workflow engine started: node {}, namespace '{}', schema '{}', serving {}", this.node.nodeId,
				config.namespace(), config.schema(), WorkflowRegistry.withoutInternal(servedTypes()));
	}

	/**
	 * Whether the node's lease ran out: it does no work and its client fails at once (see
	 * {@link NodeLease}).
	 */
	public boolean isFenced() {
		return this.node.lease.isFenced();
	}

	/** The lease of this node (for the reasons of its health). */
	public NodeLease lease() {
		return this.node.lease;
	}

	/** The connections the engine's own statements run on (gated by the lease). */
	public EngineDataSource engineDataSource() {
		return this.node.engineData;
	}

	@Override
	public Set<String> servedTypes() {
		return this.node.servedTypes();
	}

	@Override
	public boolean servesLocally(String workflowType, String taskQueue) {
		EngineSettings config = this.node.config;
		return this.running && config.workerEnabled() && config.runsWorkflows()
				&& this.node.workflows.find(workflowType) != null && config.taskQueues().contains(taskQueue);
	}

	@Override
	public void enqueued(String queue, String workflowType, String taskQueue) {
		this.node.queues.enqueued(queue, servesLocally(workflowType, taskQueue));
	}

	/**
	 * One batch of retention: deletes up to 500 runs closed before now (engine clock)
	 * minus the retention. Nothing when retention is disabled.
	 * @return how many runs were deleted
	 */
	public int retainOnce() {
		return this.node.retention.once();
	}

	@Override
	public byte[] query(RunRow row, String name, byte[] argument) {
		return queries().query(row, name, argument);
	}

	@Override
	public List<RunWait> waitingOn(RunRow row) {
		return queries().waitingOn(row);
	}

	@Override
	public String currentDetails(RunRow row) {
		return queries().currentDetails(row);
	}

	/** This node's queries; a node that is not running answers from replays only. */
	private QueryExecutor queries() {
		NodeRuntime current = this.runtime;
		return (current != null) ? current.queries
				: new QueryExecutor(Map.of(), this.node.stores.tasks(), this.node.code(), this.node.config);
	}

	@Override
	public FirstTasks firstTasks() {
		NodeRuntime current = this.runtime;
		return (this.running && current != null) ? current.firstTasks : null;
	}

	@Override
	public void adoptStarted(UUID runId, Instant at) {
		NodeRuntime current = this.runtime;
		if (current == null) {
			return;
		}
		if (at == null) {
			current.executor.adopt(runId, 1, false);
		}
		else {
			current.wake.schedule(at, () -> current.executor.adopt(runId, 1, false));
		}
	}

	@Override
	public void wake(UUID runId, UUID owner) {
		NodeRuntime current = this.runtime;
		if (current != null) {
			current.wake(runId, owner);
		}
	}

	/**
	 * First step of the stop, at once and without waiting: the node takes no new work
	 * (claims, activity starts, queue admissions); see {@link NodeServices}.
	 * {@link #shutdown} completes it.
	 */
	public synchronized void beginShutdown() {
		NodeRuntime current = this.runtime;
		if (this.running && current != null) {
			current.services.begin();
		}
	}

	/**
	 * Stops the node: its services stop in the reverse order of their start (see
	 * {@link NodeServices} for the order and what happens to work under way).
	 */
	public synchronized void shutdown() {
		if (!this.running) {
			return;
		}
		this.running = false;
		this.runtime.services.finish();
	}

	/** The durable proxy of the registered activity bean assignable to the type. */
	public Object activityProxy(Class<?> type, Class<?> forWorkflow) {
		return this.node.defaultFactory.activityProxy(type, forWorkflow);
	}

	/**
	 * One replayed task: what history holds and what the code issued on replay.
	 *
	 * @param record the stored task
	 * @param issued the commands issued on replay
	 */
	public record ReplayedTask(TaskRecord record, List<Event> issued) {
	}

	/**
	 * Replays a run's stored history from scratch on a fresh instance, outside any
	 * worker.
	 * @throws dev.durable.workflow.internal.runtime.WorkflowTaskFailedException when the
	 * code does not issue the recorded commands
	 */
	public List<ReplayedTask> replay(UUID runId) {
		RunRow row = this.node.stores.runs()
			.find(runId)
			.orElseThrow(() -> new IllegalArgumentException("No run " + runId));
		return Replays.fromScratch(row, this.node.workflows.find(row.workflowType()), this.node.factory,
				this.node.payloads, this.node.config, this.node.stores.tasks().history(runId));
	}

	/**
	 * Replays an exported history (as {@code handle.history()} or the REST API wrote it)
	 * from scratch on a fresh instance of this node's class of its type, outside any
	 * worker; payloads are encoded again with this node's converter.
	 * @throws IllegalArgumentException when the history has no start, or its type is not
	 * registered here
	 */
	public List<ReplayedTask> replay(List<HistoryEvent> history) {
		RunIdentity identity = HistoryImport.identity(history, "");
		WorkflowDefinition definition = this.node.workflows.find(identity.workflowType());
		if (definition == null) {
			throw new IllegalArgumentException(
					"Workflow type '" + identity.workflowType() + "' is not registered here");
		}
		return Replays.fromScratch(identity, definition, this.node.factory, this.node.payloads, this.node.config,
				HistoryImport.records(history, this.node.payloads.converter()));
	}

	/** The engine clock: the database's, or the settable clock a test moves. */
	public Clock clock() {
		return this.node.clock;
	}

	/** Which build new runs belong to and which runs this node takes. */
	public BuildRouter routing() {
		return this.node.routing;
	}

	public EngineSettings config() {
		return this.node.config;
	}

	@Override
	public UUID nodeId() {
		return this.node.nodeId;
	}

	public ResultWaiters waiters() {
		return this.node.waiters;
	}

	public boolean isRunning() {
		return this.running;
	}

	/**
	 * What the last start of the node wired, or {@code null} until it first starts.
	 */
	NodeRuntime runtime() {
		return this.runtime;
	}

	/**
	 * Whether nothing runs on this node right now (no task, activity, due action or poll
	 * round a wake-up asked for); for the test kit.
	 */
	public boolean isIdle() {
		NodeRuntime current = this.runtime;
		return !this.running || current == null
				|| (Quiescence.idle(current.executor, current.activities, current.wake,
						this.node.config.maxConcurrentActivities()) && this.node.queues.isIdle()
						&& this.node.taskQueues.isIdle()
						&& current.worker.map((loops) -> loops.poll().isIdle()).orElse(true));
	}

	/**
	 * Whether activity code runs on this node, inline or claimed from a task queue; for
	 * the test kit's clock.
	 */
	public boolean activitiesInFlight() {
		NodeRuntime current = this.runtime;
		return (current != null
				&& Quiescence.activitiesRunning(current.activities, this.node.config.maxConcurrentActivities()))
				|| this.node.taskQueues.anyRunning();
	}

	@Override
	public boolean holdsRun(UUID runId) {
		NodeRuntime current = this.runtime;
		return current != null && current.executor.holds(runId);
	}

	/**
	 * Whether an action the engine clock made due (a timer's wake-up, an activity's
	 * retry, timeout or heartbeat check) waits to run or runs; for tests that move the
	 * clock.
	 */
	public boolean hasDueActions() {
		NodeRuntime current = this.runtime;
		return current != null && current.wake.isBusy();
	}

	/** How many runs this node holds in memory; for tests and metrics. */
	public int cachedRuns() {
		NodeRuntime current = this.runtime;
		return (current != null) ? current.executor.slots().size() : 0;
	}

}
