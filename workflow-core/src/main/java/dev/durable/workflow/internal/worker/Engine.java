package dev.durable.workflow.internal.worker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.internal.activity.TransactionalSettings;
import dev.durable.workflow.internal.commit.TaskCommitRepository;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.queue.QueueStores;
import dev.durable.workflow.internal.queue.QueueWaker;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.registry.WorkflowRegistry;
import dev.durable.workflow.internal.store.ActivityRepository;
import dev.durable.workflow.internal.store.DatabaseClock;
import dev.durable.workflow.internal.store.DedicatedConnection;
import dev.durable.workflow.internal.store.EngineDataSource;
import dev.durable.workflow.internal.store.PooledStatementsCheck;
import dev.durable.workflow.internal.store.NodeRepository;
import dev.durable.workflow.internal.store.RunOwnership;
import dev.durable.workflow.internal.store.RunRepository;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.store.SchemaMigrator;
import dev.durable.workflow.internal.store.Stores;
import dev.durable.workflow.internal.store.TaskRepository;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.testsupport.EngineHooks;
import dev.durable.workflow.testsupport.SettableClock;

/**
 * One node of the engine: the stores, the task executor, the activity executor, and the
 * node's own loops (heartbeat, claiming runs whose owner is gone, cache eviction).
 */
public final class Engine implements LocalNode, RunWaker, QueueWaker {

	private static final Logger log = LoggerFactory.getLogger(Engine.class);

	/**
	 * How long {@link #start()} keeps trying to read the database's clock before it
	 * fails: the engine serves only once its times are on the database's clock.
	 */
	private static final Duration CLOCK_PATIENCE = Duration.ofMinutes(1);

	private final EngineSettings config;

	private final DataSource dataSource;

	private final TransactionalSettings transactions;

	private final DataSource directDataSource;

	private final Clock clock;

	private final WorkflowRegistry workflows;

	private final ActivityRegistry activityRegistry;

	private final Payloads payloads;

	private final EngineHooks hooks;

	private final Listeners listeners;

	private final boolean migrate;

	private final UUID nodeId = UUID.randomUUID();

	private final Stores stores;

	private final RunRepository runs;

	private final RunOwnership ownership;

	private final TaskRepository tasks;

	private final TaskCommitRepository taskCommits;

	private final ActivityRepository activities;

	private final NodeRepository nodes;

	private final TransactionTemplate tx;

	private final Retention retentionRun;

	private final ResultWaiters waiters;

	private final DefaultWorkflowFactory defaultFactory;

	private final Function<Class<?>, Object> factory;

	private volatile boolean running;

	private ExecutorService taskPool;

	private WakeScheduler wake;

	private WorkflowTaskExecutor executor;

	private FirstTasks firstTasks;

	private ActivityExecutor activityExecutor;

	private QueryExecutor queries;

	private volatile FallbackPoll poll;

	private WakeupChannel wakeups;

	private NodeHeartbeat heartbeat;

	private volatile NodeStop stop;

	/**
	 * A client-only engine's measurements of the database's clock (a worker's heartbeat
	 * does them).
	 */
	private ClockRefresh clockRefresh;

	private final NodeTaskQueues taskQueues;

	private final NodeQueues queues;

	private final Runnable clockListener = this::clockMoved;

	private final NodeLease lease;

	private final EngineDataSource engineData;

	/**
	 * @param factory how workflow instances are created, or {@code null} for constructor
	 * injection of the registered activities
	 * @param migrate whether {@link #start()} creates and upgrades the schema
	 * @param directDataSource connections that bypass a transaction-mode pooler, for
	 * LISTEN and the schema migration; the same as {@code dataSource} when there is no
	 * such pooler
	 * @param engineData the connections of {@code dataSource} the engine's own statements
	 * take, which {@code stores} run on (bounded by the statement timeout, closed while
	 * {@code lease} ran out)
	 * @param lease the node's lease, which its heartbeat renews
	 */
	public Engine(EngineSettings config, DataSource dataSource, DataSource directDataSource, Clock clock,
			WorkflowRegistry workflows, ActivityRegistry activityRegistry, Function<Class<?>, Object> factory,
			Payloads payloads, Stores stores, ResultWaiters waiters, EngineHooks hooks, Listeners listeners,
			boolean migrate, QueueStores queues, TransactionalSettings transactions, EngineDataSource engineData,
			NodeLease lease) {
		this.transactions = transactions;
		this.engineData = engineData;
		this.lease = lease;
		this.config = config;
		this.dataSource = dataSource;
		this.directDataSource = directDataSource;
		this.clock = clock;
		this.workflows = workflows;
		this.activityRegistry = activityRegistry;
		this.payloads = payloads;
		this.hooks = hooks;
		this.listeners = listeners;
		this.migrate = migrate;
		this.stores = stores;
		this.queues = new NodeQueues(config, this.nodeId, clock, stores.tx(), queues);
		this.taskQueues = new NodeTaskQueues(queues.admission());
		this.runs = stores.runs();
		this.ownership = stores.ownership();
		this.tasks = stores.tasks();
		// the node's own group commit: only the node writes workflow-task commits
		this.taskCommits = new TaskCommitRepository(stores.jdbc(), this.runs, config.schema());
		this.activities = stores.activities();
		this.nodes = stores.nodes();
		this.tx = stores.tx();
		this.waiters = waiters;
		this.retentionRun = new Retention(stores.retention(), config.namespace(), config.retention(), clock);
		this.defaultFactory = new DefaultWorkflowFactory(activityRegistry);
		this.factory = (factory != null) ? factory : this.defaultFactory::instantiate;
	}

	public synchronized void start() {
		if (this.running) {
			return;
		}
		// with a transaction-mode pooler in front, the pooled data source must keep
		// prepared statements working; the migration runs over the direct one, since
		// Liquibase and its advisory lock are session state
		if (this.directDataSource != this.dataSource) {
			PooledStatementsCheck.verify(this.dataSource);
		}
		if (this.migrate) {
			new SchemaMigrator(this.directDataSource, this.config.schema()).migrate();
		}
		// before anything is scheduled: the first times written are on the database's
		// clock, so the
		// engine does not serve until a measurement succeeded
		Runnable measureClock = () -> {
		};
		if (this.clock instanceof DatabaseClock database) {
			database.measureFirst(CLOCK_PATIENCE);
			measureClock = database::measure;
		}
		this.running = true;
		this.taskCommits.startWriter("durable-writer");
		this.taskPool = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("durable-task-", 0).factory());
		this.wake = new WakeScheduler(this.clock, this.taskPool);
		this.activityExecutor = new ActivityExecutor(this.activityRegistry, this.activities, this.payloads, this.clock,
				this.wake, this.nodeId, this.config.maxConcurrentActivities(), this.listeners, this.transactions,
				this.lease);
		this.executor = new WorkflowTaskExecutor(this.config, this.nodeId, this.clock, this.workflows, this.factory,
				this.payloads, this.runs, this.ownership, this.tasks, this.taskCommits, this.tx, this.wake,
				this.waiters, this.hooks, this.taskPool, this.listeners, RunEffects.of(this.activityExecutor,
						(runId) -> wake(runId, null), this.taskQueues::queued, this.queues::closed),
				this.lease);
		this.firstTasks = new FirstTasks(this.executor, this.taskCommits, this.hooks, this.listeners, this.clock);
		this.queries = new QueryExecutor(this.executor.slots(), this.tasks, this.workflows, this.factory, this.payloads,
				this.config);
		this.wakeups = WakeupChannel.forNode(this.engineData, this.directDataSource, this.config);
		this.waiters.sendNewsWith(this.wakeups::notifyOutputs, this.wakeups::notifyClosed);
		this.queues.start(this.wakeups);
		if (this.config.workerEnabled()) {
			// the heartbeat's own connection: renewing the lease must not wait behind the
			// work for the pool
			DedicatedConnection heartbeatConnection = new DedicatedConnection(this.directDataSource,
					this.config.statementTimeout());
			JdbcTemplate heartbeatJdbc = new JdbcTemplate(heartbeatConnection);
			Runnable measureOnHeartbeat = (this.clock instanceof DatabaseClock database)
					? () -> database.measure(heartbeatJdbc) : () -> {
					};
			this.heartbeat = new NodeHeartbeat(this.config, this.nodeId,
					new NodeRepository(heartbeatJdbc, this.config.schema()), this.hooks, this::servedTypes,
					() -> this.executor.eviction().evictAll(), measureOnHeartbeat, this.lease, this::fenced,
					heartbeatConnection)
				.start();
			this.taskQueues.start(this.config, this.activityRegistry, this.stores, this.payloads, this.clock,
					this.nodeId, this.heartbeat::incarnation, this.listeners, this::wake, this.wakeups);
			if (this.config.runsWorkflows() && !servedTypes().isEmpty()) {
				this.queues.startDispatcher(servedTypes(), (runId, epoch) -> this.executor.adopt(runId, epoch, false));
			}
			this.wakeups.listen(this.nodeId, this::pollNow, this.queues::woken, this.taskQueues::woken,
					(runId) -> this.executor.wakeOrPoll(runId, this::pollNow), this.waiters::outputsCommittedElsewhere,
					this.waiters::closedElsewhere);
			this.poll = new FallbackPoll(this.config, this.nodeId, this.clock, this.ownership, this.nodes,
					this.retentionRun, this.executor, this::servedTypes, this.lease)
				.start();
			if (this.clock instanceof SettableClock settable) {
				settable.onChange(this.clockListener);
			}
		}
		else {
			// no heartbeat: the clock is measured again on its own
			if (this.clock instanceof DatabaseClock) {
				this.clockRefresh = new ClockRefresh(measureClock, this.config.heartbeatInterval()).start();
			}
			this.wakeups.listenForOutputs(this.nodeId, this.waiters::outputsCommittedElsewhere,
					this.waiters::closedElsewhere);
		}
		this.stop = new NodeStop(new NodeStop.Parts(this.nodeId, this.config.shutdownTimeout(), this.poll,
				this.heartbeat, this.queues, this.taskQueues, this.activityExecutor, this.executor, this.wake,
				this.wakeups, this.queries, this.taskPool, this.taskCommits, this.ownership, this.nodes));
		log.info("Durable workflow engine started: node {}, namespace '{}', schema '{}', serving {}", this.nodeId,
				this.config.namespace(), this.config.schema(), WorkflowRegistry.withoutInternal(servedTypes()));
	}

	/**
	 * The lease ran out (see {@link NodeLease}): when the database does not answer,
	 * statements under way are aborted rather than left to their timeout; the cached runs
	 * are evicted (another node takes them over, or this one claims them again once its
	 * heartbeat is answered).
	 */
	private void fenced() {
		if (this.lease.closedReason() != null) {
			this.engineData.abortAll();
		}
		this.executor.eviction().evictAll();
	}

	/**
	 * Whether the node's lease ran out: it does no work and its client fails at once (see
	 * {@link NodeLease}).
	 */
	public boolean isFenced() {
		return this.lease.isFenced();
	}

	/** The lease of this node (for the reasons of its health). */
	public NodeLease lease() {
		return this.lease;
	}

	/** The connections the engine's own statements run on (gated by the lease). */
	public EngineDataSource engineDataSource() {
		return this.engineData;
	}

	@Override
	public Set<String> servedTypes() {
		if (!this.config.runsWorkflows()) {
			return Set.of(); // a worker-only node runs activities only
		}
		return this.workflows.servedTypes();
	}

	@Override
	public boolean servesLocally(String workflowType, String taskQueue) {
		return this.running && this.config.workerEnabled() && this.config.runsWorkflows()
				&& this.workflows.find(workflowType) != null && this.config.taskQueues().contains(taskQueue);
	}

	/**
	 * Asks the fallback poll to look at once (a notification came, or the settable clock
	 * moved).
	 */
	private void pollNow() {
		FallbackPoll current = this.poll;
		if (current != null) {
			current.pollNow();
		}
	}

	/**
	 * The settable clock moved: timers, delayed starts and rate windows may have come
	 * due.
	 */
	private void clockMoved() {
		pollNow();
		this.taskQueues.clockMoved();
		this.queues.clockMoved();
	}

	@Override
	public void enqueued(String queue, String workflowType, String taskQueue) {
		this.queues.enqueued(queue, servesLocally(workflowType, taskQueue));
	}

	/**
	 * One batch of retention: deletes up to 500 runs closed before now (engine clock)
	 * minus the retention. Nothing when retention is disabled.
	 * @return how many runs were deleted
	 */
	public int retainOnce() {
		return this.retentionRun.once();
	}

	@Override
	public byte[] query(RunRow row, String name, byte[] argument) {
		QueryExecutor executor = this.queries;
		if (executor == null) {
			executor = new QueryExecutor(Map.of(), this.tasks, this.workflows, this.factory, this.payloads,
					this.config);
		}
		return executor.query(row, name, argument);
	}

	@Override
	public FirstTasks firstTasks() {
		return this.running ? this.firstTasks : null;
	}

	@Override
	public void adoptStarted(UUID runId, Instant at) {
		if (at == null) {
			this.executor.adopt(runId, 1, false);
		}
		else {
			this.wake.schedule(at, () -> this.executor.adopt(runId, 1, false));
		}
	}

	@Override
	public void wake(UUID runId, UUID owner) {
		if (this.nodeId.equals(owner)) {
			if (this.executor != null) {
				this.executor.wake(runId);
			}
		}
		else if (this.wakeups != null && owner != null) {
			this.wakeups.notifyRun(owner, runId);
		}
		else if (this.wakeups != null) {
			this.wakeups.notifyNode(null);
		}
	}

	/**
	 * First step of the stop, at once and without waiting: the node takes no new work
	 * (claims, activity starts, queue admissions); see {@link NodeStop}.
	 * {@link #shutdown} completes it.
	 */
	public synchronized void beginShutdown() {
		NodeStop current = this.stop;
		if (this.running && current != null) {
			current.begin();
		}
	}

	/**
	 * Stops the node: see {@link NodeStop} for the order and what happens to work under
	 * way.
	 */
	public synchronized void shutdown() {
		if (!this.running) {
			return;
		}
		this.running = false;
		if (this.clock instanceof SettableClock settable) {
			settable.removeListener(this.clockListener);
		}
		NodeStop current = this.stop;
		if (current != null) {
			current.finish();
		}
		ClockRefresh refresh = this.clockRefresh;
		if (refresh != null) {
			// its statement is bounded by the statement timeout
			refresh.stop(this.config.statementTimeout().plusSeconds(1));
			this.clockRefresh = null;
		}
	}

	/** The durable proxy of the registered activity bean assignable to the type. */
	public Object activityProxy(Class<?> type, Class<?> forWorkflow) {
		return this.defaultFactory.activityProxy(type, forWorkflow);
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
		RunRow row = this.runs.find(runId).orElseThrow(() -> new IllegalArgumentException("No run " + runId));
		return Replays.fromScratch(row, this.workflows.find(row.workflowType()), this.factory, this.payloads,
				this.config, this.tasks.history(runId));
	}

	/** The engine clock: the database's, or the settable clock a test moves. */
	public Clock clock() {
		return this.clock;
	}

	public EngineSettings config() {
		return this.config;
	}

	@Override
	public UUID nodeId() {
		return this.nodeId;
	}

	public ResultWaiters waiters() {
		return this.waiters;
	}

	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Whether the node is stopping and starts no new work (claims, attempts); for tests.
	 */
	public boolean isStopping() {
		NodeStop current = this.stop;
		return current != null && current.hasBegun();
	}

	/**
	 * Whether nothing runs on this node right now (no task, activity, due action or poll
	 * round a wake-up asked for); for the test kit.
	 */
	public boolean isIdle() {
		return !this.running || (Quiescence.idle(this.executor, this.activityExecutor, this.wake,
				this.config.maxConcurrentActivities()) && this.queues.isIdle() && this.taskQueues.isIdle()
				&& (this.poll == null || this.poll.isIdle()));
	}

	/**
	 * Whether activity code runs on this node, inline or claimed from a task queue; for
	 * the test kit's clock.
	 */
	public boolean activitiesInFlight() {
		return Quiescence.activitiesRunning(this.activityExecutor, this.config.maxConcurrentActivities())
				|| this.taskQueues.anyRunning();
	}

	@Override
	public boolean holdsRun(UUID runId) {
		return this.executor != null && this.executor.holds(runId);
	}

	/**
	 * The fallback poll, for tests that run a poll round themselves ({@code null} on a
	 * node that does not work).
	 */
	FallbackPoll poll() {
		return this.poll;
	}

	/**
	 * The workflow task executor, or {@code null} on a client-only node; for tests of
	 * this package.
	 */
	WorkflowTaskExecutor executor() {
		return this.executor;
	}

	/**
	 * Whether an action the engine clock made due (a timer's wake-up, an activity's
	 * retry, timeout or heartbeat check) waits to run or runs; for tests that move the
	 * clock.
	 */
	public boolean hasDueActions() {
		WakeScheduler current = this.wake;
		return current != null && current.isBusy();
	}

	/** How many runs this node holds in memory; for tests and metrics. */
	public int cachedRuns() {
		return (this.executor != null) ? this.executor.slots().size() : 0;
	}

}
