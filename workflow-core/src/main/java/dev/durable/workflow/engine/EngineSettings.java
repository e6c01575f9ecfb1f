package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.Workflow;

/**
 * The settings of an engine node, as {@link WorkflowEngine.Builder} (or the Spring
 * module's {@code durable.workflow.*} properties) set them;
 * {@link WorkflowEngine#settings()} reads them.
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
 * @param historyLimits when continue-as-new is suggested, and when a run is terminated
 * @param retention how long closed runs, their history and deduplication records are kept
 * (zero or negative: forever)
 * @param runsWorkflows whether this worker node runs workflows (false: a worker-only
 * node, which runs only activities claimed from {@code activityTaskQueues})
 * @param activityTaskQueues the activity task queues this node claims activities from (it
 * runs the activities of those queues that are registered on it)
 * @param queues the flow-control queues this node declares (written to the database at
 * start)
 * @param failWorkflowExceptionTypes exception types that fail the run, not the workflow
 * task, when workflow code of any type throws them (see
 * {@link Workflow#failWorkflowExceptionTypes()})
 * @param statementTimeout how long one of the engine's statements may wait for the
 * database's answer before it fails as if the database were unreachable ({@code null}:
 * the default, see {@link #defaultStatementTimeout})
 * @param idleInTransactionTimeout how long the database lets a session of the engine stay
 * idle in a transaction before it ends it (so a node cut off by a network partition does
 * not keep its locks); zero or negative: the engine sets no session timeouts
 * ({@code null}: the default, see {@link #defaultIdleInTransactionTimeout})
 * @param versioning how runs are routed among builds (the node's default behaviour, the
 * types whose stranded pinned runs move by themselves)
 */
public record EngineSettings(String namespace, String schema, boolean workerEnabled, Set<String> taskQueues,
		int maxConcurrentActivities, int maxCachedRuns, Duration cacheIdleTimeout, Duration pollInterval,
		Duration heartbeatInterval, Duration deadAfter, Duration taskTimeout, int maxPayloadBytes,
		Duration shutdownTimeout, @Nullable String buildId, HistoryLimits historyLimits, Duration retention,
		boolean runsWorkflows, Set<String> activityTaskQueues, List<QueueDefinition> queues,
		List<Class<? extends Throwable>> failWorkflowExceptionTypes, Duration statementTimeout,
		Duration idleInTransactionTimeout, Versioning versioning) {

	/**
	 * Worker versioning settings of a node.
	 *
	 * @param defaultBehavior the behaviour of the types that leave it to the node
	 * ({@link VersioningBehavior#PINNED} or {@link VersioningBehavior#AUTO_UPGRADE})
	 * @param moveStrandedAfter per workflow type: how long after the last node of a
	 * pinned run's build is gone a node of the current build moves the run to its own
	 * build, when its history replays there
	 */
	public record Versioning(VersioningBehavior defaultBehavior, Map<String, Duration> moveStrandedAfter) {

		/** Auto-upgrade by default, nothing moves by itself. */
		public static final Versioning DEFAULT = new Versioning(VersioningBehavior.AUTO_UPGRADE, Map.of());

		public Versioning {
			if (defaultBehavior == VersioningBehavior.NODE_DEFAULT) {
				throw new IllegalArgumentException(
						"The node's default versioning behavior must be PINNED or" + " AUTO_UPGRADE");
			}
			moveStrandedAfter = Map.copyOf(moveStrandedAfter);
			moveStrandedAfter.forEach((type, after) -> {
				if (after.isNegative()) {
					throw new IllegalArgumentException("move-stranded-after of '" + type + "' must not be negative");
				}
			});
		}

	}

	public EngineSettings {
		activityTaskQueues = Set.copyOf(activityTaskQueues);
		queues = List.copyOf(queues);
		failWorkflowExceptionTypes = List.copyOf(failWorkflowExceptionTypes);
		if (heartbeatInterval.compareTo(deadAfter) >= 0) {
			throw new IllegalArgumentException(
					"heartbeatInterval (" + heartbeatInterval + ") must be shorter than deadAfter (" + deadAfter + ")");
		}
		if (statementTimeout == null) {
			statementTimeout = defaultStatementTimeout(heartbeatInterval, deadAfter);
		}
		if (statementTimeout.isNegative() || statementTimeout.isZero()) {
			throw new IllegalArgumentException("statementTimeout must be positive: " + statementTimeout);
		}
		if (idleInTransactionTimeout == null) {
			idleInTransactionTimeout = defaultIdleInTransactionTimeout(deadAfter.minus(heartbeatInterval));
		}
	}

	/**
	 * The default idle-in-transaction timeout: the {@link #lease() lease}, at least a
	 * second. The setting ends the application's own transactions on the same pooled
	 * connections too when they stay idle that long, so the default is generous; it is
	 * the backstop for a node that stopped while its kernel still answers (a paused
	 * process), whose runs others take over after {@code deadAfter} anyway. A node cut
	 * off by a partition is found sooner by the TCP keepalives, which follow the
	 * statement timeout (see {@code SessionTimeouts}).
	 */
	public static Duration defaultIdleInTransactionTimeout(Duration lease) {
		return (lease.compareTo(Duration.ofSeconds(1)) < 0) ? Duration.ofSeconds(1) : lease;
	}

	/**
	 * The default statement timeout: ten seconds, or the {@link #lease() lease} when it
	 * is shorter (a statement cannot usefully outlast it: the node aborts its statements
	 * when it fences itself).
	 */
	public static Duration defaultStatementTimeout(Duration heartbeatInterval, Duration deadAfter) {
		Duration lease = deadAfter.minus(heartbeatInterval);
		Duration tenSeconds = Duration.ofSeconds(10);
		return (lease.compareTo(tenSeconds) < 0) ? lease : tenSeconds;
	}

	/**
	 * How long a worker node goes on working without a heartbeat the database answered:
	 * one heartbeat interval less than {@code deadAfter}. Past it the node fences itself
	 * (claims, starts and commits nothing and evicts its cached runs; when the database
	 * does not answer, it also aborts its statements under way and fails its client's
	 * calls at once) before other nodes may take its runs over; the next heartbeat the
	 * database answers lifts the fence. Measured from when the renewing heartbeat was
	 * sent, on the node's monotonic clock.
	 */
	public Duration lease() {
		return this.deadAfter.minus(this.heartbeatInterval);
	}

	/**
	 * History size thresholds.
	 *
	 * @param suggestEvents events past which continue-as-new is suggested
	 * @param suggestBytes bytes past which continue-as-new is suggested
	 * @param maxEvents events past which the run is terminated
	 * @param maxBytes bytes past which the run is terminated
	 */
	public record HistoryLimits(long suggestEvents, long suggestBytes, long maxEvents, long maxBytes) {

		/**
		 * Temporal's: suggested at 4,096 events or 4 MB, terminated past 51,200 events or
		 * 50 MB.
		 */
		public static final HistoryLimits DEFAULT = new HistoryLimits(4_096, 4L << 20, 51_200, 50L << 20);

		public boolean suggests(long events, long bytes) {
			return events >= this.suggestEvents || bytes >= this.suggestBytes;
		}

		public boolean exceeded(long events, long bytes) {
			return events > this.maxEvents || bytes > this.maxBytes;
		}

	}

	public static final String DEFAULT_TASK_QUEUE = "default";

}
