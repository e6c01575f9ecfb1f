package dev.durable.workflow.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowSemaphore;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.activity.TransactionIsolation;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.failure.NonDeterministicWorkflowException;
import dev.durable.workflow.failure.WorkflowException;
import dev.durable.workflow.internal.activity.TransactionalSettings;
import dev.durable.workflow.internal.listener.Listeners;
import dev.durable.workflow.internal.registry.ActivityRegistry;
import dev.durable.workflow.internal.replay.CheckReplay;
import dev.durable.workflow.internal.support.Interceptors;
import dev.durable.workflow.payload.EncryptingPayloadConverter;
import dev.durable.workflow.payload.PayloadConverter;
import dev.durable.workflow.testsupport.EngineHooks;
import dev.durable.workflow.testsupport.EngineQuiescence;
import dev.durable.workflow.testsupport.SettableClock;

/**
 * A node of the workflow engine, for use without Spring:
 * {@code WorkflowEngine.builder().dataSource(ds).register(MyWorkflow.class).registerActivities(new MyActivities()).build().start()}.
 * Many nodes may share one database.
 */
public final class WorkflowEngine implements AutoCloseable {

	private final EngineAssembly parts;

	WorkflowEngine(EngineAssembly parts) {
		this.parts = parts;
	}

	public static Builder builder() {
		return new Builder();
	}

	/** Migrates the schema (unless disabled), registers the node and starts serving. */
	public synchronized WorkflowEngine start() {
		this.parts.node.start();
		return this;
	}

	/**
	 * Begins the stop, at once and without waiting: the node claims no more runs or
	 * task-queue activities, starts no more activity attempts and fires no more
	 * schedules; the attempts under way run on. {@link #shutdown} completes the stop; the
	 * shutdown timeout counts from this call. For a container that stops other components
	 * first (a web server that drains its requests), so that the node does not start work
	 * it would then have to wait for. Does nothing on a node that is not running.
	 */
	public synchronized void beginShutdown() {
		this.parts.node.beginShutdown();
	}

	/**
	 * Stops the node: it takes no new work at once (see {@link #beginShutdown}), lets the
	 * activity attempts under way finish for up to the shutdown timeout, commits their
	 * outcomes, then releases its runs so that other nodes take them over at once.
	 * Attempts still running at the timeout are given up; the node that takes their run
	 * over retries them (an activity runs at least once). Returns within the shutdown
	 * timeout and a few seconds.
	 */
	public synchronized void shutdown() {
		this.parts.node.shutdown();
	}

	@Override
	public void close() {
		shutdown();
	}

	public WorkflowClient client() {
		return this.parts.client;
	}

	/** This node's id, as recorded as the owner of the runs it executes. */
	public UUID nodeId() {
		return this.parts.node.nodeId();
	}

	public boolean isRunning() {
		return this.parts.node.isRunning();
	}

	/**
	 * Whether this worker node fenced itself: the database has not answered its heartbeat
	 * for {@link EngineSettings#lease()}, so other nodes may soon take its runs over.
	 * Fenced, the node claims, starts and commits nothing and has evicted its cached
	 * runs; while its heartbeat gets no answer its client also fails at once, as when the
	 * database is unreachable (a {@code DataAccessResourceFailureException}). It works
	 * again, registering anew if it was declared dead, once a heartbeat is answered.
	 * Always false on a node that is not a worker.
	 */
	public boolean isFenced() {
		return this.parts.node.isFenced();
	}

	/**
	 * The durable proxy of a registered activity bean: calls from workflow code are
	 * scheduled, others run directly.
	 */
	public <T> T activityProxy(Class<T> activityType) {
		return activityProxy(activityType, null);
	}

	/**
	 * {@link #activityProxy(Class)} for a parameter of a workflow class, so that a
	 * missing activity bean is reported with the workflow that needs it.
	 * @param forWorkflow the workflow class whose constructor takes the activity, or
	 * {@code null}
	 * @throws IllegalStateException when no registered activity bean is assignable to the
	 * type
	 */
	public <T> T activityProxy(Class<T> activityType, @Nullable Class<?> forWorkflow) {
		return activityType.cast(this.parts.node.activityProxy(activityType, forWorkflow));
	}

	/**
	 * Whether a type is an activity type: annotated {@code @Activity}, or implementing or
	 * extending one that is (what {@link Builder#registerActivities} and the Spring
	 * module register).
	 */
	public static boolean isActivityType(Class<?> type) {
		return ActivityRegistry.activityType(type) != null;
	}

	/**
	 * The application's workflow types registered on this node, by name. The engine's own
	 * type {@code durable-permit} (the permits of {@link WorkflowSemaphore}) is left out:
	 * it runs wherever workflows run, but it is not the application's to list or start.
	 */
	public List<WorkflowTypeInfo> workflowTypes() {
		return this.parts.types.all();
	}

	/**
	 * An application workflow type registered on this node, or empty when this node does
	 * not know it (or it is the engine's own {@code durable-permit}, see
	 * {@link #workflowTypes()}).
	 */
	public Optional<WorkflowTypeInfo> workflowType(String name) {
		return this.parts.types.find(name);
	}

	/**
	 * The flow-control queues of this engine's namespace, and the activity task queues
	 * with pending work, with what each holds now. Reads the database; works whether or
	 * not the engine is started.
	 */
	public List<QueueInfo> queues() {
		return this.parts.stats.queues();
	}

	/**
	 * The engine clock's time: the database's clock as this node reads it (its own clock
	 * corrected by the offset it measures), or the {@link SettableClock} given to
	 * {@link Builder#clock}. The times the engine writes and shows ({@link #queues()},
	 * {@link #stats}, a run's description) are on it, so an age computed against it
	 * agrees on every node whatever its own clock says.
	 */
	public Instant now() {
		return this.parts.node.clock().instant();
	}

	/** The settings this node was built with. */
	public EngineSettings settings() {
		return this.parts.node.config();
	}

	/**
	 * How many runs this node holds in memory between their workflow tasks (the sticky
	 * cache).
	 */
	public int cachedRuns() {
		return this.parts.node.cachedRuns();
	}

	/**
	 * Replays a run's stored history from scratch on a fresh instance of its workflow
	 * class, on this node and outside any worker: a check that the code deployed here
	 * still issues the recorded commands. Changes nothing.
	 * @return how many history events were replayed
	 * @throws WorkflowException when the code does not replay the history (its cause a
	 * {@link NonDeterministicWorkflowException} when the commands differ)
	 * @throws IllegalArgumentException when there is no such run or its type is not
	 * registered here
	 */
	public int replay(UUID runId) {
		return this.parts.node.replay(runId).stream().mapToInt((task) -> task.record().events().size()).sum();
	}

	/**
	 * Replays a sample of the stored histories of each workflow type against the code of
	 * this node, and reports every run that does not replay with its first mismatch: a
	 * check that this code may run the open runs of the types (run it on a node of a new
	 * build before it takes them). Changes nothing; works whether or not the engine is
	 * started. The runs are the most recently started of each type, open ones first (see
	 * {@link ReplayCheckOptions}).
	 * @throws dev.durable.workflow.client.UnknownWorkflowTypeException when the options
	 * name a type this node does not register
	 */
	public ReplayCheckReport checkReplay(ReplayCheckOptions options) {
		return this.parts.replayCheck.stored(options);
	}

	/**
	 * Replays exported histories (as
	 * {@link dev.durable.workflow.client.WorkflowHandle#history()} or the REST API export
	 * them) against the code of this node, each on its class of the type the history's
	 * start names, and reports every one that does not replay. Payloads are encoded again
	 * with this node's payload converter. Changes nothing.
	 * @param histories the histories by a name of the caller's (a file name, say), which
	 * the report uses for a history that has no workflow id
	 */
	public ReplayCheckReport checkReplay(Map<String, List<HistoryEvent>> histories) {
		return CheckReplay.exported(histories, (type) -> this.parts.workflows.find(type) != null,
				this.parts.node::replay);
	}

	/** What the test kit's time skipping asks of this node; not for applications. */
	public EngineQuiescence quiescence() {
		return this.parts.quiescence;
	}

	/** What the engine is made of, for the engine's own tests. */
	EngineAssembly parts() {
		return this.parts;
	}

	/**
	 * What the runs of this engine's namespace look like right now: counts by type and
	 * status, the backlog, failing workflow tasks (up to 10 examples) and the registered
	 * nodes. Reads the database (a few indexed queries and one count over the runs the
	 * retention keeps); it works whether or not the engine is started.
	 * @param stuckAfter how long a workflow task must have been failing for its run to
	 * count as stuck
	 */
	public EngineStats stats(Duration stuckAfter) {
		return stats(null, stuckAfter);
	}

	/**
	 * {@link #stats(Duration)} for one workflow type: its runs, and the nodes that serve
	 * it.
	 * @param workflowType the type, or {@code null} for all types
	 * @param stuckAfter how long a workflow task must have been failing for its run to
	 * count as stuck
	 */
	public EngineStats stats(@Nullable String workflowType, Duration stuckAfter) {
		return this.parts.stats.stats(workflowType, stuckAfter);
	}

	/**
	 * Only the backlog part of {@link #stats(String, Duration)}: one query over the open
	 * runs, cheap enough for a health check.
	 * @param workflowType the type, or {@code null} for all types
	 * @param stuckAfter how long a workflow task must have been failing for its run to
	 * count as stuck
	 */
	public EngineStats.Backlog backlog(@Nullable String workflowType, Duration stuckAfter) {
		return this.parts.stats.backlog(workflowType, stuckAfter);
	}

	/** Builder of {@link WorkflowEngine}. */
	public static final class Builder {

		// where and what
		private @Nullable DataSource dataSource;

		private @Nullable DataSource directDataSource;

		private String namespace = "default";

		private String schema = "durable";

		private boolean migrate = true;

		private final List<Class<?>> workflows = new ArrayList<>();

		private final List<Object> activities = new ArrayList<>();

		private @Nullable Function<Class<?>, Object> workflowFactory;

		private ActivityOptions activityDefaults = ActivityOptions.DEFAULT;

		private @Nullable PayloadConverter payloadConverter;

		private int maxPayloadBytes = 2 * 1024 * 1024;

		private Clock clock = Clock.systemUTC();

		private TransactionIsolation transactionIsolation = TransactionIsolation.READ_COMMITTED;

		private int serializationRetries = TransactionalSettings.DEFAULT_SERIALIZATION_RETRIES;

		private org.springframework.transaction.@Nullable PlatformTransactionManager activityTransactionManager;

		// how the node works among the others, and the code around its work
		private final NodeOptions node = new NodeOptions();

		private final EngineExtensions extensions = new EngineExtensions();

		private Builder() {
		}

		public Builder dataSource(DataSource dataSource) {
			this.dataSource = dataSource;
			return this;
		}

		/**
		 * Connections straight to PostgreSQL for when {@link #dataSource(DataSource)}
		 * goes through a transaction-mode pooler such as PgBouncer. The engine takes from
		 * it the one connection it keeps for LISTEN (a LISTEN through such a pooler never
		 * delivers), the connection of the schema migration (Liquibase and the
		 * migration's advisory lock are session state) and the one a worker node keeps
		 * for its heartbeat (renewing its lease must not wait behind the work for a
		 * pooled connection; it is opened anew after a failure); every other statement
		 * still goes through the pooled data source. Setting it also makes
		 * {@code start()} check that the pooled data source keeps the driver's prepared
		 * statements working (fails fast, naming {@code prepareThreshold=0}, when it does
		 * not). Default: the data source itself (then those connections are held out of
		 * it for as long as the engine runs). A pool of two or three connections is
		 * enough.
		 */
		public Builder directDataSource(DataSource directDataSource) {
			this.directDataSource = directDataSource;
			return this;
		}

		public Builder namespace(String namespace) {
			this.namespace = namespace;
			return this;
		}

		/** The database schema (default {@code durable}). */
		public Builder schema(String schema) {
			this.schema = schema;
			return this;
		}

		/** Registers workflow classes this node executes. */
		public Builder register(Class<?>... workflowClasses) {
			this.workflows.addAll(List.of(workflowClasses));
			return this;
		}

		/**
		 * Registers activity implementations (instances of {@code @Activity} classes or
		 * interfaces).
		 */
		public Builder registerActivities(Object... implementations) {
			this.activities.addAll(List.of(implementations));
			return this;
		}

		/**
		 * How workflow instances are created; default: constructor injection of
		 * registered activities.
		 */
		public Builder workflowFactory(Function<Class<?>, Object> factory) {
			this.workflowFactory = factory;
			return this;
		}

		/**
		 * The clock for everything the engine schedules; a {@link SettableClock} lets
		 * tests skip time. Any other clock is corrected to the database's clock (its
		 * offset measured at start and with every heartbeat), so that nodes whose clocks
		 * disagree still agree on when things are due.
		 */
		public Builder clock(Clock clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * The converter of every payload the engine stores;
		 * {@link PayloadConverter#json()} by default. {@link EncryptingPayloadConverter}
		 * encrypts them.
		 */
		public Builder payloadConverter(PayloadConverter converter) {
			this.payloadConverter = converter;
			return this;
		}

		/** Options of activity methods without {@code @ActivityMethod} values. */
		public Builder activityDefaults(ActivityOptions options) {
			this.activityDefaults = options;
			return this;
		}

		public Builder maxPayloadSize(int bytes) {
			this.maxPayloadBytes = bytes;
			return this;
		}

		/**
		 * The defaults of {@link ActivityMethod#transactional() transactional
		 * activities}: the isolation level of their transactions (default READ_COMMITTED)
		 * and how many times a transaction aborted by a serialization failure or a
		 * deadlock runs again before the attempt counts as failed (default 10).
		 * {@code @ActivityMethod(isolation, serializationRetries)} overrides them per
		 * method.
		 */
		public Builder transactionalActivities(TransactionIsolation isolation, int serializationRetries) {
			if (serializationRetries < 0) {
				throw new IllegalArgumentException(
						"serializationRetries must not be negative: " + serializationRetries);
			}
			this.transactionIsolation = isolation;
			this.serializationRetries = serializationRetries;
			return this;
		}

		/**
		 * The transaction manager that runs {@link ActivityMethod#transactional()
		 * transactional activities}: the application's (a {@code JpaTransactionManager}
		 * or {@code DataSourceTransactionManager} of the engine's
		 * {@link #dataSource(DataSource)}), so that its JPA or JDBC code joins the
		 * activity's transaction. It must bind connections of that data source (an
		 * attempt fails, not retried, when it does not). Default: a
		 * {@code DataSourceTransactionManager} of the engine's own, which any
		 * {@code JdbcTemplate} or {@code DataSourceUtils} on the same data source joins.
		 */
		public Builder activityTransactionManager(org.springframework.transaction.PlatformTransactionManager manager) {
			this.activityTransactionManager = manager;
			return this;
		}

		/** Whether {@link #start()} creates and upgrades the schema (default true). */
		public Builder migrateSchema(boolean migrate) {
			this.migrate = migrate;
			return this;
		}

		/** Whether this node executes workflows; false makes it a client only. */
		public Builder worker(boolean enabled) {
			this.node.worker(enabled);
			return this;
		}

		public Builder taskQueues(String... queues) {
			this.node.taskQueues(queues);
			return this;
		}

		/**
		 * Whether this worker node runs workflows (default true); false: a worker-only
		 * node.
		 */
		public Builder runWorkflows(boolean enabled) {
			this.node.runWorkflows(enabled);
			return this;
		}

		/** The activity task queues this node claims activities from (default none). */
		public Builder activityTaskQueues(String... queues) {
			this.node.activityTaskQueues(queues);
			return this;
		}

		/**
		 * Declares a flow-control queue (see {@link QueueDefinition}); a later one of the
		 * same name replaces it.
		 */
		public Builder queue(QueueDefinition queue) {
			this.node.queue(queue);
			return this;
		}

		public Builder maxConcurrentActivities(int value) {
			this.node.maxConcurrentActivities(value);
			return this;
		}

		public Builder maxCachedRuns(int value) {
			this.node.maxCachedRuns(value);
			return this;
		}

		public Builder cacheIdleTimeout(Duration value) {
			this.node.cacheIdleTimeout(value);
			return this;
		}

		public Builder pollInterval(Duration value) {
			this.node.pollInterval(value);
			return this;
		}

		public Builder heartbeatInterval(Duration value) {
			this.node.heartbeatInterval(value);
			return this;
		}

		/**
		 * Silence after which other nodes take over this node's runs. The node itself
		 * stops working one heartbeat interval earlier when its heartbeats get no answer
		 * (see {@link EngineSettings#lease()}).
		 */
		public Builder deadAfter(Duration value) {
			this.node.deadAfter(value);
			return this;
		}

		/**
		 * How long one of the engine's statements may wait for the database's answer (the
		 * network timeout of the connections the engine takes from the data source,
		 * restored when it gives them back); past it the statement fails as if the
		 * database were unreachable. A network partition drops packets rather than
		 * closing connections, so without it a statement would wait for TCP to give up.
		 * Default: ten seconds, or {@link EngineSettings#lease()} when that is shorter.
		 */
		public Builder statementTimeout(Duration value) {
			this.node.statementTimeout(value);
			return this;
		}

		/**
		 * How long the database lets one of the engine's sessions stay idle inside a
		 * transaction before it ends the session (PostgreSQL's
		 * {@code idle_in_transaction_session_timeout}), set together with TCP keepalives
		 * and a TCP user timeout that follow the statement timeout (a third of it idle,
		 * then two probes a second apart; they end only sessions whose peer is gone). A
		 * node cut off by a network partition cannot roll back its open transactions, and
		 * the server is not told it is gone: without them their locks would hold the
		 * statements of healthy nodes until TCP gives up. Each physical connection gets
		 * the settings once, the first time the engine takes it; they are session
		 * settings, so the application's own transactions on the same pooled connections
		 * are ended too when they stay idle that long (a transactional activity's
		 * transaction included). Zero turns all the settings off (for a
		 * transaction-pooling proxy, whose own timeouts then apply). Default: the lease
		 * (dead-after minus the heartbeat interval), at least a second.
		 */
		public Builder idleInTransactionTimeout(Duration value) {
			this.node.idleInTransactionTimeout(value);
			return this;
		}

		/** How long workflow code may run without yielding in one workflow task. */
		public Builder taskTimeout(Duration value) {
			this.node.taskTimeout(value);
			return this;
		}

		public Builder shutdownTimeout(Duration value) {
			this.node.shutdownTimeout(value);
			return this;
		}

		/**
		 * The build this node runs (a version of the application's code), or {@code null}
		 * for an unversioned node. Nodes with build ids route runs by build: see
		 * {@link VersioningBehavior}.
		 */
		public Builder buildId(@Nullable String buildId) {
			this.node.buildId(buildId);
			return this;
		}

		/**
		 * The versioning behaviour of the workflow types that leave it to the node
		 * ({@code @Workflow(versioning = NODE_DEFAULT)}): {@code PINNED} or
		 * {@code AUTO_UPGRADE} (the default).
		 */
		public Builder defaultVersioningBehavior(VersioningBehavior behavior) {
			this.node.defaultVersioning(behavior);
			return this;
		}

		/**
		 * Moves the stranded pinned runs of a workflow type by themselves: once the last
		 * node of a run's build has been gone this long, a node of the current build
		 * replays the run's history on its own code and, when it replays, moves the run
		 * to its build; a run that does not replay stays where it is, its refusal shown.
		 */
		public Builder moveStrandedRunsAfter(String workflowType, Duration after) {
			this.node.moveStrandedAfter(workflowType, after);
			return this;
		}

		/**
		 * History thresholds: past {@code suggestEvents} events or {@code suggestBytes}
		 * bytes {@code Workflows.info().continueAsNewSuggested()} turns true; past
		 * {@code maxEvents} or {@code maxBytes} the run is terminated. Defaults: 4,096 /
		 * 4 MB and 51,200 / 50 MB.
		 */
		public Builder historyLimits(long suggestEvents, long suggestBytes, long maxEvents, long maxBytes) {
			this.node.historyLimits(suggestEvents, suggestBytes, maxEvents, maxBytes);
			return this;
		}

		/**
		 * How long closed runs, their history and deduplication records are kept (default
		 * 7 days); then worker nodes delete them in small batches. Zero or negative keeps
		 * them forever.
		 */
		public Builder retention(Duration value) {
			this.node.retention(value);
			return this;
		}

		/**
		 * Exception types that fail the run when the workflow code of any type throws
		 * them (instances of subclasses included), instead of failing the workflow task
		 * and retrying it (default none). Added to each workflow's own
		 * {@link Workflow#failWorkflowExceptionTypes()}.
		 */
		@SafeVarargs
		public final Builder failWorkflowExceptionTypes(Class<? extends Throwable>... types) {
			this.node.failWorkflowExceptionTypes(types);
			return this;
		}

		/**
		 * Adds a listener to what this node does (runs started and closed, workflow
		 * tasks, activity attempts), for metrics and tracing. Listeners are called in the
		 * order added.
		 */
		public Builder listener(WorkflowEngineListener listener) {
			this.extensions.listener(listener);
			return this;
		}

		/**
		 * Adds an interceptor around this engine's client calls, workflow tasks and
		 * activity attempts, with the headers it carries from a start to the run's work.
		 * The first added is the outermost.
		 */
		public Builder interceptor(WorkflowInterceptor interceptor) {
			this.extensions.interceptor(interceptor);
			return this;
		}

		/** Test seams (see {@link EngineHooks}); not for applications. */
		public Builder hooks(EngineHooks hooks) {
			this.extensions.hooks(hooks);
			return this;
		}

		public WorkflowEngine build() {
			DataSource dataSource = Objects.requireNonNull(this.dataSource, "dataSource");
			EngineSettings settings = this.node.settings(this.namespace, this.schema, this.maxPayloadBytes);
			PayloadConverter converter = (this.payloadConverter != null) ? this.payloadConverter
					: PayloadConverter.json();
			DataSource direct = (this.directDataSource != null) ? this.directDataSource : dataSource;
			return new WorkflowEngine(new EngineAssembly(settings, dataSource, direct, this.clock, this.workflows,
					this.activities, this.activityDefaults, this.workflowFactory, converter, this.extensions.hooks(),
					new Listeners(this.extensions.listeners(), new Interceptors(this.extensions.interceptors())),
					this.migrate, TransactionalSettings.of(dataSource, this.activityTransactionManager,
							this.transactionIsolation, this.serializationRetries)));
		}

	}

}
