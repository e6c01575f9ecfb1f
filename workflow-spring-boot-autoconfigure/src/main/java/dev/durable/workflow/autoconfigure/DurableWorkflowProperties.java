package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.activity.TransactionIsolation;
import dev.durable.workflow.engine.ExcessStrategy;
import dev.durable.workflow.engine.QueueDefinition;

/**
 * Configuration properties of the durable workflow engine, bound to
 * {@code durable.workflow.*}: the engine's own settings, with a nested class for each
 * group of them. The REST endpoints ({@code durable.workflow.web.*}) and the embedded
 * PostgreSQL server ({@code durable.workflow.embedded-postgres.*}) have properties of
 * their own, next to their auto-configurations.
 */
@ConfigurationProperties("durable.workflow")
public class DurableWorkflowProperties {

	/**
	 * Namespace of every run this application starts and serves. Applications that share
	 * a database but not their workflows use different namespaces.
	 */
	private String namespace = "default";

	/**
	 * Database schema of the engine's tables. Created and upgraded at startup.
	 */
	private String schema = "durable";

	/**
	 * Whether the node creates and upgrades the engine's schema at startup. Turn it off
	 * where the schema is migrated ahead of a rollout, or where the database user may not
	 * change it: the node then starts only on a schema that is already current.
	 */
	private boolean migrateSchema = true;

	/**
	 * Maximum size of one serialized payload (input, result, signal, activity argument).
	 */
	private DataSize maxPayloadSize = DataSize.ofMegabytes(2);

	/**
	 * How long closed runs, their history and deduplication records (signal idempotency
	 * keys, update ids) are kept. Worker nodes then delete them in small batches. Zero or
	 * negative keeps them forever.
	 */
	private Duration retention = Duration.ofDays(7);

	/**
	 * Flow-control queues this node declares, by name: workflow starts join one with
	 * StartOptions.queue, and activities on the activity task queue of the same name are
	 * limited by it. Each has concurrency, per-node-concurrency, rate-limit, rate-period,
	 * partition-concurrency, fair, partition-weights, partition-excess, rate-excess and
	 * admission-timeout. Declare a queue with the same limits on every node.
	 */
	private final Map<String, Queue> queues = new LinkedHashMap<>();

	private final Worker worker = new Worker();

	private final Node node = new Node();

	private final History history = new History();

	private final Activity activity = new Activity();

	private final Payload payload = new Payload();

	private final Propagation propagation = new Propagation();

	private final Direct direct = new Direct();

	private final Health health = new Health();

	private final ReplayCheck replayCheck = new ReplayCheck();

	private final Versioning versioning = new Versioning();

	public String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(String namespace) {
		this.namespace = namespace;
	}

	public String getSchema() {
		return this.schema;
	}

	public void setSchema(String schema) {
		this.schema = schema;
	}

	public boolean isMigrateSchema() {
		return this.migrateSchema;
	}

	public void setMigrateSchema(boolean migrateSchema) {
		this.migrateSchema = migrateSchema;
	}

	public DataSize getMaxPayloadSize() {
		return this.maxPayloadSize;
	}

	public void setMaxPayloadSize(DataSize maxPayloadSize) {
		this.maxPayloadSize = maxPayloadSize;
	}

	public Duration getRetention() {
		return this.retention;
	}

	public void setRetention(Duration retention) {
		this.retention = retention;
	}

	public Map<String, Queue> getQueues() {
		return this.queues;
	}

	public Worker getWorker() {
		return this.worker;
	}

	public Node getNode() {
		return this.node;
	}

	public History getHistory() {
		return this.history;
	}

	public Activity getActivity() {
		return this.activity;
	}

	public Payload getPayload() {
		return this.payload;
	}

	public Propagation getPropagation() {
		return this.propagation;
	}

	public Direct getDirect() {
		return this.direct;
	}

	public ReplayCheck getReplayCheck() {
		return this.replayCheck;
	}

	public Versioning getVersioning() {
		return this.versioning;
	}

	public Health getHealth() {
		return this.health;
	}

	/**
	 * What this node executes ({@code durable.workflow.worker.*}).
	 */
	public static class Worker {

		/**
		 * Whether this node executes workflows and activities. When false the application
		 * is a client only: it starts and reaches runs that other nodes execute.
		 */
		private boolean enabled = true;

		/**
		 * Whether this worker node runs workflows. False makes it a worker-only node: it
		 * runs only the activities it claims from its activity task queues, and needs no
		 * workflow classes.
		 */
		private boolean workflows = true;

		/**
		 * Activity task queues this node claims activities from (the task queues named by
		 * ActivityMethod.taskQueue or ActivityOptions.taskQueue). It runs the activities
		 * of those queues that are beans here.
		 */
		private List<String> activityTaskQueues = new ArrayList<>();

		/**
		 * Maximum number of activity attempts running at once on this node.
		 */
		private int maxConcurrentActivities = 100;

		/**
		 * Maximum number of runs kept in memory between workflow tasks, so that their
		 * next task needs no replay.
		 */
		private int maxCachedRuns = 1000;

		/**
		 * How often the node looks for runs to claim and timers that are due. A fallback:
		 * runs started or signaled on this node are woken at once.
		 */
		private Duration pollInterval = Duration.ofSeconds(1);

		/**
		 * Task queues this node serves. A run started on another queue is left to the
		 * nodes that serve it.
		 */
		private List<String> taskQueues = new ArrayList<>(List.of("default"));

		/**
		 * How long shutdown waits for running activities before the node releases its
		 * runs.
		 */
		private Duration shutdownTimeout = Duration.ofSeconds(30);

		/**
		 * How long one workflow task (one activation of workflow code) may run before it
		 * is failed and retried. A start's own task timeout takes precedence.
		 */
		private Duration taskTimeout = Duration.ofSeconds(10);

		/**
		 * How long a run may stay in memory without a workflow task before it is evicted
		 * (it is replayed on its next task).
		 */
		private Duration cacheIdleTimeout = Duration.ofMinutes(10);

		/**
		 * Exception types (fully qualified class names) that fail the run, instead of
		 * failing the workflow task and retrying it, when workflow code of any type
		 * throws them (subclasses included). Added to each workflow's
		 * own @Workflow(failWorkflowExceptionTypes).
		 */
		private List<Class<? extends Throwable>> failWorkflowExceptionTypes = new ArrayList<>();

		public List<Class<? extends Throwable>> getFailWorkflowExceptionTypes() {
			return this.failWorkflowExceptionTypes;
		}

		public void setFailWorkflowExceptionTypes(List<Class<? extends Throwable>> failWorkflowExceptionTypes) {
			// the binder converts any class name to a Class, whatever the declared bound
			for (Class<?> type : failWorkflowExceptionTypes) {
				if (!Throwable.class.isAssignableFrom(type)) {
					throw new IllegalArgumentException("fail-workflow-exception-types must name exception types; "
							+ type.getName() + " is not one");
				}
			}
			this.failWorkflowExceptionTypes = failWorkflowExceptionTypes;
		}

		public Duration getTaskTimeout() {
			return this.taskTimeout;
		}

		public void setTaskTimeout(Duration taskTimeout) {
			this.taskTimeout = taskTimeout;
		}

		public Duration getCacheIdleTimeout() {
			return this.cacheIdleTimeout;
		}

		public void setCacheIdleTimeout(Duration cacheIdleTimeout) {
			this.cacheIdleTimeout = cacheIdleTimeout;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public boolean isWorkflows() {
			return this.workflows;
		}

		public void setWorkflows(boolean workflows) {
			this.workflows = workflows;
		}

		public List<String> getActivityTaskQueues() {
			return this.activityTaskQueues;
		}

		public void setActivityTaskQueues(List<String> activityTaskQueues) {
			// refused while binding, so that the failure names the property and the value
			if (activityTaskQueues.stream().anyMatch(String::isBlank)) {
				throw new IllegalArgumentException(
						"activity-task-queues: a task queue name must not be blank, got " + activityTaskQueues);
			}
			this.activityTaskQueues = activityTaskQueues;
		}

		public int getMaxConcurrentActivities() {
			return this.maxConcurrentActivities;
		}

		public void setMaxConcurrentActivities(int maxConcurrentActivities) {
			this.maxConcurrentActivities = maxConcurrentActivities;
		}

		public int getMaxCachedRuns() {
			return this.maxCachedRuns;
		}

		public void setMaxCachedRuns(int maxCachedRuns) {
			this.maxCachedRuns = maxCachedRuns;
		}

		public Duration getPollInterval() {
			return this.pollInterval;
		}

		public void setPollInterval(Duration pollInterval) {
			this.pollInterval = pollInterval;
		}

		public List<String> getTaskQueues() {
			return this.taskQueues;
		}

		public void setTaskQueues(List<String> taskQueues) {
			this.taskQueues = taskQueues;
		}

		public Duration getShutdownTimeout() {
			return this.shutdownTimeout;
		}

		public void setShutdownTimeout(Duration shutdownTimeout) {
			this.shutdownTimeout = shutdownTimeout;
		}

	}

	/**
	 * How this node shows other nodes that it is alive ({@code durable.workflow.node.*}).
	 */
	public static class Node {

		/**
		 * How often the node records that it is alive.
		 */
		private Duration heartbeatInterval = Duration.ofSeconds(5);

		/**
		 * Silence after which other nodes count this node as dead and take over its runs.
		 * Must be longer than the heartbeat interval. A node whose heartbeats get no
		 * answer stops working by itself one heartbeat interval earlier (its lease): it
		 * claims, starts and commits nothing and answers its callers 503 until a
		 * heartbeat is answered again.
		 */
		private Duration deadAfter = Duration.ofSeconds(30);

		/**
		 * How long one of the engine's statements waits for the database's answer before
		 * it fails as if the database were unreachable (the network timeout of the
		 * connections the engine takes from the DataSource, restored when it gives them
		 * back, so the application's own statements keep theirs). Bounds how long a
		 * silent network, such as a partition that drops packets, holds a caller.
		 * Default: 10s, or dead-after minus the heartbeat interval when that is shorter.
		 */
		private @Nullable Duration statementTimeout;

		/**
		 * How long the database lets one of the engine's sessions stay idle inside a
		 * transaction before it ends it (PostgreSQL's
		 * idle_in_transaction_session_timeout, set with TCP keepalives and a TCP user
		 * timeout that follow the statement timeout), so that a node cut off by a network
		 * partition does not keep its transactions' locks while healthy nodes wait on
		 * them. Set once on each physical connection the engine takes from the
		 * DataSource: they are session settings, so the application's own transactions on
		 * those pooled connections (a transactional activity's included) are ended too
		 * when they stay idle that long. 0 turns them all off. Default: dead-after minus
		 * the heartbeat interval, at least 1s.
		 */
		private @Nullable Duration idleInTransactionTimeout;

		/**
		 * Which build of the application this node runs, shown with the node in the
		 * workflows endpoint and the dashboard. Default: the application's version from
		 * its build info (META-INF/build-info.properties, written by the Spring Boot
		 * plugin's build-info goal); without either the node is unversioned.
		 */
		private @Nullable String buildId;

		public @Nullable String getBuildId() {
			return this.buildId;
		}

		public void setBuildId(@Nullable String buildId) {
			this.buildId = buildId;
		}

		public @Nullable Duration getIdleInTransactionTimeout() {
			return this.idleInTransactionTimeout;
		}

		public void setIdleInTransactionTimeout(@Nullable Duration idleInTransactionTimeout) {
			this.idleInTransactionTimeout = idleInTransactionTimeout;
		}

		public Duration getHeartbeatInterval() {
			return this.heartbeatInterval;
		}

		public void setHeartbeatInterval(Duration heartbeatInterval) {
			this.heartbeatInterval = heartbeatInterval;
		}

		public @Nullable Duration getStatementTimeout() {
			return this.statementTimeout;
		}

		public void setStatementTimeout(@Nullable Duration statementTimeout) {
			this.statementTimeout = statementTimeout;
		}

		public Duration getDeadAfter() {
			return this.deadAfter;
		}

		public void setDeadAfter(Duration deadAfter) {
			this.deadAfter = deadAfter;
		}

	}

	/**
	 * The limits of one flow-control queue (see {@link QueueDefinition}); zero means no
	 * limit. Bound to {@code durable.workflow.queues.<name>.*}. The setters refuse
	 * invalid values while the properties are bound, so that the startup failure names
	 * the property and its value.
	 */
	public static class Queue {

		/**
		 * How many items of the queue (admitted workflow runs until they close, claimed
		 * activity attempts until their outcome) run at once across the cluster. 0: no
		 * limit.
		 */
		private int concurrency;

		/**
		 * How many items of the queue run at once on one node. 0: no limit.
		 */
		private int perNodeConcurrency;

		/**
		 * How many items of the queue may start per rate period, cluster-wide. 0: no
		 * limit.
		 */
		private int rateLimit;

		/**
		 * The sliding window of the rate limit.
		 */
		private Duration ratePeriod = Duration.ofSeconds(1);

		/**
		 * How many items of one partition key run at once. 0: no limit.
		 */
		private int partitionConcurrency;

		/**
		 * Whether items are admitted round-robin across partition keys within a priority
		 * (a key with many waiting items does not delay a key with few), rather than in
		 * order of arrival.
		 */
		private boolean fair;

		/**
		 * Admissions per turn of fair admission, by partition key (keys not listed weigh
		 * 1; 1-1000). Setting a weight turns fair admission on.
		 */
		private Map<String, Integer> partitionWeights = new LinkedHashMap<>();

		/**
		 * What a workflow start beyond the partition concurrency does: queue (wait),
		 * cancel-newest (refused with START_CANCELED), cancel-oldest-running (the key's
		 * oldest runs are asked to cancel) or drop (refused with START_DROPPED).
		 */
		private ExcessStrategy partitionExcess = ExcessStrategy.QUEUE;

		/**
		 * What a workflow start does when the rate window is full: queue (wait) or drop
		 * (refused with START_DROPPED).
		 */
		private ExcessStrategy rateExcess = ExcessStrategy.QUEUE;

		/**
		 * How long a workflow start may wait in the queue before it closes as timed out
		 * instead of running late. Unset: no limit.
		 */
		private @Nullable Duration admissionTimeout;

		public int getConcurrency() {
			return this.concurrency;
		}

		public void setConcurrency(int concurrency) {
			this.concurrency = notNegative("concurrency", concurrency);
		}

		public int getPerNodeConcurrency() {
			return this.perNodeConcurrency;
		}

		public void setPerNodeConcurrency(int perNodeConcurrency) {
			this.perNodeConcurrency = notNegative("per-node-concurrency", perNodeConcurrency);
		}

		public int getRateLimit() {
			return this.rateLimit;
		}

		public void setRateLimit(int rateLimit) {
			this.rateLimit = notNegative("rate-limit", rateLimit);
		}

		public Duration getRatePeriod() {
			return this.ratePeriod;
		}

		public void setRatePeriod(Duration ratePeriod) {
			if (ratePeriod.isNegative() || ratePeriod.isZero()) {
				throw new IllegalArgumentException("rate-period must be positive, got " + ratePeriod);
			}
			this.ratePeriod = ratePeriod;
		}

		public int getPartitionConcurrency() {
			return this.partitionConcurrency;
		}

		public void setPartitionConcurrency(int partitionConcurrency) {
			this.partitionConcurrency = notNegative("partition-concurrency", partitionConcurrency);
		}

		public boolean isFair() {
			return this.fair;
		}

		public void setFair(boolean fair) {
			this.fair = fair;
		}

		public Map<String, Integer> getPartitionWeights() {
			return this.partitionWeights;
		}

		public void setPartitionWeights(Map<String, Integer> partitionWeights) {
			this.partitionWeights = new LinkedHashMap<>(partitionWeights);
		}

		public ExcessStrategy getPartitionExcess() {
			return this.partitionExcess;
		}

		public void setPartitionExcess(ExcessStrategy partitionExcess) {
			this.partitionExcess = partitionExcess;
		}

		public ExcessStrategy getRateExcess() {
			return this.rateExcess;
		}

		public void setRateExcess(ExcessStrategy rateExcess) {
			this.rateExcess = rateExcess;
		}

		public @Nullable Duration getAdmissionTimeout() {
			return this.admissionTimeout;
		}

		public void setAdmissionTimeout(@Nullable Duration admissionTimeout) {
			if (admissionTimeout != null && (admissionTimeout.isNegative() || admissionTimeout.isZero())) {
				throw new IllegalArgumentException("admission-timeout must be positive, got " + admissionTimeout);
			}
			this.admissionTimeout = admissionTimeout;
		}

		/**
		 * The queue of that name with these limits.
		 * @param name the queue's name, the key under {@code durable.workflow.queues}
		 * @return its definition
		 * @throws IllegalArgumentException when the name is not a valid queue name
		 */
		public QueueDefinition toDefinition(String name) {
			if (!QueueDefinition.isValidName(name)) {
				throw new IllegalArgumentException("durable.workflow.queues." + name + ": '" + name
						+ "' is not a queue name (1-100 letters, digits and ._:-)");
			}
			QueueDefinition definition = QueueDefinition.named(name)
				.withConcurrency(this.concurrency)
				.withPerNodeConcurrency(this.perNodeConcurrency)
				.withRateLimit(this.rateLimit, this.ratePeriod)
				.withPartitionConcurrency(this.partitionConcurrency);
			if (this.fair) {
				definition = definition.withFairness();
			}
			for (Map.Entry<String, Integer> weight : this.partitionWeights.entrySet()) {
				definition = definition.withPartitionWeight(weight.getKey(), weight.getValue());
			}
			try {
				return definition.withPartitionExcess(this.partitionExcess)
					.withRateExcess(this.rateExcess)
					.withAdmissionTimeout(this.admissionTimeout);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("durable.workflow.queues." + name + ": " + ex.getMessage(), ex);
			}
		}

		private static int notNegative(String property, int limit) {
			if (limit < 0) {
				throw new IllegalArgumentException(property + " must not be negative (0 means no limit), got " + limit);
			}
			return limit;
		}

	}

	/**
	 * Limits on the history of one run ({@code durable.workflow.history.*}).
	 */
	public static class History {

		/**
		 * Events in a run's history past which Workflows.info().continueAsNewSuggested()
		 * is true.
		 */
		private long suggestedEvents = 4_096;

		/**
		 * History size past which Workflows.info().continueAsNewSuggested() is true.
		 */
		private DataSize suggestedSize = DataSize.ofMegabytes(4);

		/**
		 * Events past which a run is terminated (it should have continued as new).
		 */
		private long maxEvents = 51_200;

		/**
		 * History size past which a run is terminated.
		 */
		private DataSize maxSize = DataSize.ofMegabytes(50);

		public long getSuggestedEvents() {
			return this.suggestedEvents;
		}

		public void setSuggestedEvents(long suggestedEvents) {
			this.suggestedEvents = suggestedEvents;
		}

		public DataSize getSuggestedSize() {
			return this.suggestedSize;
		}

		public void setSuggestedSize(DataSize suggestedSize) {
			this.suggestedSize = suggestedSize;
		}

		public long getMaxEvents() {
			return this.maxEvents;
		}

		public void setMaxEvents(long maxEvents) {
			this.maxEvents = maxEvents;
		}

		public DataSize getMaxSize() {
			return this.maxSize;
		}

		public void setMaxSize(DataSize maxSize) {
			this.maxSize = maxSize;
		}

	}

	/**
	 * Defaults of activities ({@code durable.workflow.activity.*}).
	 */
	public static class Activity {

		private final Transactional transactional = new Transactional();

		public Transactional getTransactional() {
			return this.transactional;
		}

		/**
		 * Defaults of transactional activities
		 * ({@code @ActivityMethod(transactional = true)}), which an activity method's own
		 * {@code isolation} and {@code serializationRetries} override.
		 */
		public static class Transactional {

			/** Isolation level of a transactional activity's transaction. */
			private TransactionIsolation isolation = TransactionIsolation.READ_COMMITTED;

			/**
			 * How many times a transactional activity's transaction aborted by a
			 * serialization failure or a deadlock (SQLState 40001 or 40P01) runs again
			 * within the same attempt.
			 */
			private int serializationRetries = 10;

			public TransactionIsolation getIsolation() {
				return this.isolation;
			}

			public void setIsolation(TransactionIsolation isolation) {
				this.isolation = isolation;
			}

			public int getSerializationRetries() {
				return this.serializationRetries;
			}

			public void setSerializationRetries(int serializationRetries) {
				this.serializationRetries = serializationRetries;
			}

		}

	}

	/**
	 * How payloads are stored ({@code durable.workflow.payload.*}).
	 */
	public static class Payload {

		private final Encryption encryption = new Encryption();

		public Encryption getEncryption() {
			return this.encryption;
		}

		/**
		 * Encryption of payloads with AES-GCM
		 * ({@code dev.durable.workflow.payload.EncryptingPayloadConverter}): on when a
		 * key is set. Bound to {@code durable.workflow.payload.encryption.*}.
		 */
		public static class Encryption {

			/**
			 * Keys by id, each the base64 of 16, 24 or 32 random bytes (32 recommended).
			 * The id (lowercase letters, digits, '-' or '_'; not secret) is stored with
			 * every payload; keep a key as long as payloads it encrypted may be read.
			 */
			private final Map<String, String> keys = new LinkedHashMap<>();

			/**
			 * Id of the key that encrypts new payloads; one of the keys.
			 */
			private @Nullable String currentKey;

			/**
			 * Whether payloads written before encryption was turned on (not encrypted)
			 * are refused instead of read.
			 */
			private boolean rejectUnencrypted;

			public Map<String, String> getKeys() {
				return this.keys;
			}

			public @Nullable String getCurrentKey() {
				return this.currentKey;
			}

			public void setCurrentKey(@Nullable String currentKey) {
				this.currentKey = currentKey;
			}

			public boolean isRejectUnencrypted() {
				return this.rejectUnencrypted;
			}

			public void setRejectUnencrypted(boolean rejectUnencrypted) {
				this.rejectUnencrypted = rejectUnencrypted;
			}

			/** Keys are secrets: never part of a string that may be logged. */
			@Override
			public String toString() {
				return "Encryption[keyIds=" + this.keys.keySet() + ", currentKey=" + this.currentKey + "]";
			}

		}

	}

	/**
	 * What a start carries to the work of its run
	 * ({@code durable.workflow.propagation.*}).
	 */
	public static class Propagation {

		/**
		 * MDC keys whose values on the thread that starts a run are stored with the run
		 * and put in the MDC of its workflow tasks and activities (for example tenant or
		 * user). The trace context needs no key: with Micrometer Tracing it is carried by
		 * the observations.
		 */
		private List<String> mdcKeys = new ArrayList<>();

		public List<String> getMdcKeys() {
			return this.mdcKeys;
		}

		public void setMdcKeys(List<String> mdcKeys) {
			this.mdcKeys = mdcKeys;
		}

	}

	/**
	 * A direct connection to PostgreSQL for when the application's DataSource goes
	 * through a transaction-mode pooler such as PgBouncer: the engine keeps its one
	 * LISTEN connection and its heartbeat's connection on it and runs the schema
	 * migration over it (each needs a session of its own); everything else stays on the
	 * application's DataSource. Unset (the default), the application's DataSource serves
	 * them (the LISTEN and heartbeat connections are then held out of its pool for as
	 * long as the engine runs). Setting the URL also makes the engine check at start that
	 * the pooled DataSource keeps the driver's prepared statements working (see the
	 * docs/engine.md, section PgBouncer). Bound to {@code durable.workflow.direct.*}.
	 */
	public static class Direct {

		/**
		 * JDBC URL straight to PostgreSQL (not through the pooler), e.g.
		 * jdbc:postgresql://db-primary:5432/app.
		 */
		private @Nullable String url;

		/**
		 * User of the direct connection; unset: the URL's own (or the driver's default).
		 */
		private @Nullable String username;

		/**
		 * Password of the direct connection.
		 */
		private @Nullable String password;

		public @Nullable String getUrl() {
			return this.url;
		}

		public void setUrl(@Nullable String url) {
			this.url = url;
		}

		public @Nullable String getUsername() {
			return this.username;
		}

		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

	}

	/**
	 * Thresholds of the durableWorkflow health contributor and of the stuck runs that the
	 * workflows actuator endpoint and the REST overview count
	 * ({@code durable.workflow.health.*}).
	 */
	public static class Health {

		/**
		 * Runnable runs waiting for a workflow task (new input or a due timer) above
		 * which the health is OUT_OF_SERVICE: the workers do not keep up.
		 */
		private long maxBacklog = 10_000;

		/**
		 * Stuck runs above which the health is OUT_OF_SERVICE. A run is stuck when its
		 * workflow task has been failing for longer than stuck-after (a bug in workflow
		 * code, a non-deterministic change).
		 */
		private long maxStuckRuns = 10;

		/**
		 * How long a workflow task must have been failing for its run to count as stuck.
		 */
		private Duration stuckAfter = Duration.ofMinutes(5);

		public long getMaxBacklog() {
			return this.maxBacklog;
		}

		public void setMaxBacklog(long maxBacklog) {
			this.maxBacklog = maxBacklog;
		}

		public long getMaxStuckRuns() {
			return this.maxStuckRuns;
		}

		public void setMaxStuckRuns(long maxStuckRuns) {
			this.maxStuckRuns = maxStuckRuns;
		}

		public Duration getStuckAfter() {
			return this.stuckAfter;
		}

		public void setStuckAfter(Duration stuckAfter) {
			this.stuckAfter = stuckAfter;
		}

	}

	/**
	 * The replay check of a node at startup: a sample of the open runs of each workflow
	 * type it registers, replayed on its code, with the types it cannot replay logged and
	 * reported by the {@code durableReplayCheck} health contributor. Bound to
	 * {@code durable.workflow.replay-check.*}.
	 */
	public static class ReplayCheck {

		/**
		 * Whether the node replays a sample of the open runs of each of its workflow
		 * types once it has started, and reports the types whose runs its code would not
		 * replay (log, health). Turn it on for the first nodes of a new build.
		 */
		private boolean onStartup = false;

		/**
		 * How many open runs of each workflow type the startup check replays (the most
		 * recently started ones).
		 */
		private int sampleSize = 20;

		public boolean isOnStartup() {
			return this.onStartup;
		}

		public void setOnStartup(boolean onStartup) {
			this.onStartup = onStartup;
		}

		public int getSampleSize() {
			return this.sampleSize;
		}

		public void setSampleSize(int sampleSize) {
			this.sampleSize = sampleSize;
		}

	}

	/**
	 * Worker versioning: how runs are routed among builds when nodes have build ids
	 * ({@code durable.workflow.node.build-id}). Bound to
	 * {@code durable.workflow.versioning.*}.
	 */
	public static class Versioning {

		/**
		 * The versioning behavior of the workflow types that do not declare one in
		 * {@code @Workflow(versioning = ...)}: AUTO_UPGRADE (a run's next task runs on
		 * the current build) or PINNED (a run stays on the build that started it).
		 */
		private VersioningBehavior defaultBehavior = VersioningBehavior.AUTO_UPGRADE;

		/**
		 * Per workflow type: how long after the last node of a pinned run's build is gone
		 * a node of the current build moves the run to its own build by itself, when the
		 * run's history replays on its code (runs that do not replay stay, visibly).
		 */
		private Map<String, Duration> moveStrandedAfter = new LinkedHashMap<>();

		public VersioningBehavior getDefaultBehavior() {
			return this.defaultBehavior;
		}

		public void setDefaultBehavior(VersioningBehavior defaultBehavior) {
			this.defaultBehavior = defaultBehavior;
		}

		public Map<String, Duration> getMoveStrandedAfter() {
			return this.moveStrandedAfter;
		}

		public void setMoveStrandedAfter(Map<String, Duration> moveStrandedAfter) {
			this.moveStrandedAfter = moveStrandedAfter;
		}

	}

}
