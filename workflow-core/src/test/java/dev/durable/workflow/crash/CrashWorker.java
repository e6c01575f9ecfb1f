package dev.durable.workflow.crash;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityInfo;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.TestDatabase;

/**
 * The worker JVM of {@code CrashRecoveryIT}: a workflow node on a given schema, killed
 * with SIGKILL by the test. Arguments: {@code <jdbcUrl> <schema> <mode> <testPid>} where
 * mode is {@code start} (start {@link #WORKFLOWS} workflows, then serve) or {@code serve}
 * (serve only). Serves until killed (or until the test JVM exits).
 *
 * <p>
 * Every activity execution inserts a row into {@code <schema>_log.activity_log} (created
 * by the worker) with its own autocommit statement, before it does its work, so that
 * executions cut short by the kill are on record too.
 */
public final class CrashWorker {

	public static final int WORKFLOWS = 200;

	public static final int STEPS = 5;

	public static final String TYPE = "crash-chain";

	/** A worker halts by itself after this long, whatever happens to the test. */
	static final Duration MAX_LIFETIME = Duration.ofMinutes(5);

	private CrashWorker() {
	}

	public static String workflowId(int index) {
		return "crash-" + index;
	}

	/** The schema-qualified log table of a test schema. */
	public static String logTable(String schema) {
		return schema + "_log.activity_log";
	}

	/**
	 * What step {@code step} returns for the accumulated value {@code acc}: derived from
	 * its input.
	 */
	public static String stepValue(String acc, int step) {
		return acc + "|" + step + ":" + Integer.toHexString((acc + "#" + step).hashCode());
	}

	/** The result workflow {@code index} must end with. */
	public static String expectedResult(int index) {
		String acc = workflowId(index);
		for (int step = 1; step <= STEPS; step++) {
			acc = stepValue(acc, step);
		}
		return acc;
	}

	/**
	 * How long one step of workflow {@code index} works: one workflow in eight is fast
	 * (20 ms), the others take 150 ms to 1,050 ms per step, so that when the test kills
	 * the first worker some workflows are complete and others are far from it, with many
	 * activities in flight.
	 */
	public static long stepMillis(int index) {
		int group = index % 8;
		return (group == 0) ? 20 : 150L * group;
	}

	/**
	 * The activities: each execution is logged, then works, then returns a value derived
	 * from its input.
	 */
	@Activity
	public interface ChainSteps {

		String step(int index, int step, String acc);

	}

	/** Logs each execution to the log table with its own autocommit insert. */
	public static final class LoggingChainSteps implements ChainSteps {

		private final DataSource log;

		private final String table;

		private final long pid = ProcessHandle.current().pid();

		public LoggingChainSteps(DataSource log, String schema) {
			this.log = log;
			this.table = logTable(schema);
		}

		@Override
		public String step(int index, int step, String acc) {
			ActivityInfo info = ActivityContext.current().info();
			try (Connection connection = this.log.getConnection();
					PreparedStatement insert = connection.prepareStatement("INSERT INTO " + this.table
							+ " (workflow_id, step, pid, attempt, run_id) VALUES (?, ?, ?, ?, ?)")) {
				connection.setAutoCommit(true);
				insert.setString(1, info.workflowId());
				insert.setInt(2, step);
				insert.setLong(3, this.pid);
				insert.setInt(4, info.attempt());
				insert.setObject(5, info.runId());
				insert.executeUpdate();
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Cannot log step " + step + " of " + info.workflowId(), ex);
			}
			try {
				Thread.sleep(stepMillis(index)); // the activity's "work"
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted", ex);
			}
			return stepValue(acc, step);
		}

	}

	/** Five sequential activities, each fed the previous one's result. */
	@Workflow(TYPE)
	public static class ChainWorkflow {

		private final ChainSteps steps;

		public ChainWorkflow(ChainSteps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(int index) {
			String acc = workflowId(index);
			for (int step = 1; step <= STEPS; step++) {
				acc = this.steps.step(index, step, acc);
			}
			return acc;
		}

	}

	/** The engine settings both workers use. */
	public static WorkflowEngine.Builder engine(DataSource engineDataSource, DataSource logDataSource, String schema) {
		return WorkflowEngine.builder()
			.dataSource(engineDataSource)
			.schema(schema)
			.pollInterval(Duration.ofMillis(100))
			.heartbeatInterval(Duration.ofMillis(200))
			// generous: on a loaded 2-core machine a live worker can miss heartbeats for
			// a second or more,
			// and a worker declared dead re-runs its activities (at least once, as
			// promised)
			.deadAfter(Duration.ofSeconds(5))
			.maxConcurrentActivities(WORKFLOWS)
			.register(ChainWorkflow.class)
			.registerActivities(new LoggingChainSteps(logDataSource, schema));
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 4 || !(args[2].equals("start") || args[2].equals("serve"))) {
			System.err.println("usage: CrashWorker <jdbcUrl> <schema> start|serve <pid of the test JVM>");
			System.exit(2);
		}
		String url = args[0];
		String schema = args[1];
		boolean start = args[2].equals("start");
		long pid = ProcessHandle.current().pid();
		exitWithTheTest(Long.parseLong(args[3]));
		HikariDataSource engineDataSource = TestDatabase.pool(url, 24);
		HikariDataSource logDataSource = TestDatabase.pool(url, 8);
		createLogTable(logDataSource, schema);
		WorkflowEngine engine = engine(engineDataSource, logDataSource, schema).build().start();
		System.out.println("CrashWorker pid " + pid + ": node " + engine.nodeId() + " serving schema " + schema + " ("
				+ ManagementFactory.getRuntimeMXBean().getUptime() + " ms after the JVM started)");
		if (start) {
			long began = System.nanoTime();
			for (int i = 0; i < WORKFLOWS; i++) {
				engine.client().start(ChainWorkflow::run, i, StartOptions.withId(workflowId(i)));
			}
			System.out.println("CrashWorker pid " + pid + ": started " + WORKFLOWS + " workflows in "
					+ (System.nanoTime() - began) / 1_000_000 + " ms");
		}
		System.out.flush();
		new CountDownLatch(1).await(); // serve until killed
	}

	private static void createLogTable(DataSource dataSource, String schema) throws SQLException {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			connection.setAutoCommit(true);
			statement.execute("CREATE SCHEMA IF NOT EXISTS " + schema + "_log");
			statement.execute("CREATE TABLE IF NOT EXISTS " + logTable(schema)
					+ " (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, workflow_id text NOT NULL,"
					+ " step int NOT NULL, pid bigint NOT NULL, attempt int NOT NULL, run_id uuid NOT NULL,"
					+ " started_at timestamptz NOT NULL DEFAULT clock_timestamp())");
		}
	}

	/**
	 * A worker never outlives the test that started it, even when that JVM dies without
	 * its finally blocks: it halts when the test JVM exits, and after
	 * {@link #MAX_LIFETIME} anyway.
	 */
	static void exitWithTheTest(long testPid) {
		ProcessHandle.of(testPid)
			.orElseThrow(() -> new IllegalStateException("the test JVM " + testPid + " is gone"))
			.onExit()
			.thenRun(() -> Runtime.getRuntime().halt(3));
		Thread.ofPlatform().daemon().name("crash-worker-lifetime").start(() -> {
			try {
				Thread.sleep(MAX_LIFETIME.toMillis());
			}
			catch (InterruptedException ex) {
				return;
			}
			System.out.println("CrashWorker: still running after " + MAX_LIFETIME + "; halting");
			Runtime.getRuntime().halt(4);
		});
	}

}
