package dev.durable.workflow.crash;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.TestDatabase;

/**
 * The worker JVM of {@code TransactionalActivityKillIT}: a node that runs
 * {@link #WORKFLOWS} workflows of {@link #STEPS} steps, each step a transactional
 * activity that inserts a row with a unique key into an application table, then a plain
 * activity that logs its execution (at least once). Arguments:
 * {@code <jdbcUrl> <schema> start|serve <testPid>}; serves until killed.
 *
 * <p>
 * Every execution of either activity is also logged with its own autocommit insert on
 * another pool, before it does its work, so that executions cut short by a kill are on
 * record.
 */
public final class TransactionalWorker {

	public static final int WORKFLOWS = 100;

	public static final int STEPS = 5;

	/**
	 * Printed (and fails the test) when a transactional insert ever meets its own key.
	 */
	public static final String DUPLICATE_KEY = "DUPLICATE KEY";

	private TransactionalWorker() {
	}

	public static String workflowId(int index) {
		return "txn-" + index;
	}

	public static String key(int index, int step) {
		return index + ":" + step;
	}

	/** The application's schema of a test schema. */
	public static String appSchema(String schema) {
		return schema + "_app";
	}

	/** A step's transactional insert, then its plain, at-least-once log line. */
	@Activity
	public static class Steps {

		private final JdbcTemplate app;

		private final JdbcTemplate log;

		private final String schema;

		private final long pid = ProcessHandle.current().pid();

		/**
		 * @param engineDataSource the engine's own data source: the transactional insert
		 * joins the activity's transaction through it
		 * @param logDataSource another pool, for the autocommit log of executions
		 */
		public Steps(DataSource engineDataSource, DataSource logDataSource, String schema) {
			this.app = new JdbcTemplate(engineDataSource);
			this.log = new JdbcTemplate(logDataSource);
			this.schema = appSchema(schema);
		}

		@ActivityMethod(transactional = true)
		public String insert(int index, int step) {
			String key = key(index, step);
			this.log.update("INSERT INTO " + this.schema + ".txn_execution (key, pid) VALUES (?, ?)", key, this.pid);
			try {
				this.app.update("INSERT INTO " + this.schema + ".txn_row (key, pid, attempt) VALUES (?, ?, ?)", key,
						this.pid, ActivityContext.current().info().attempt());
			}
			catch (DuplicateKeyException ex) {
				System.out.println(DUPLICATE_KEY + " " + key + ": " + ex.getMessage());
				System.out.flush();
				throw ex;
			}
			pause(20 + (index * 7 + step * 13) % 60); // the transaction stays open
														// meanwhile
			return key;
		}

		public void touch(int index, int step) {
			this.log.update("INSERT INTO " + this.schema + ".plain_execution (key, pid) VALUES (?, ?)",
					key(index, step), this.pid);
			pause(150);
		}

		private static void pause(long millis) {
			try {
				Thread.sleep(millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted", ex);
			}
		}

	}

	@Workflow("txn-chain")
	public static class TxnChainWorkflow {

		private final Steps steps;

		public TxnChainWorkflow(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(int index) {
			StringBuilder keys = new StringBuilder();
			for (int step = 1; step <= STEPS; step++) {
				keys.append(this.steps.insert(index, step)).append(' ');
				this.steps.touch(index, step);
			}
			return keys.toString().trim();
		}

	}

	/** The result workflow {@code index} must end with. */
	public static String expectedResult(int index) {
		StringBuilder keys = new StringBuilder();
		for (int step = 1; step <= STEPS; step++) {
			keys.append(key(index, step)).append(' ');
		}
		return keys.toString().trim();
	}

	public static WorkflowEngine.Builder engine(DataSource engineDataSource, DataSource logDataSource, String schema) {
		return WorkflowEngine.builder()
			.dataSource(engineDataSource)
			.schema(schema)
			.pollInterval(Duration.ofMillis(100))
			.heartbeatInterval(Duration.ofMillis(200))
			.deadAfter(Duration.ofSeconds(3))
			// few at once, so that the work lasts long enough to be killed in its middle
			.maxConcurrentActivities(12)
			.register(TxnChainWorkflow.class)
			.registerActivities(new Steps(engineDataSource, logDataSource, schema));
	}

	public static void main(String[] args) throws Exception {
		if (args.length != 4 || !(args[2].equals("start") || args[2].equals("serve"))) {
			System.err.println("usage: TransactionalWorker <jdbcUrl> <schema> start|serve <pid of the test JVM>");
			System.exit(2);
		}
		String url = args[0];
		String schema = args[1];
		CrashWorker.exitWithTheTest(Long.parseLong(args[3]));
		HikariDataSource engineDataSource = TestDatabase.pool(url, 24);
		HikariDataSource logDataSource = TestDatabase.pool(url, 8);
		createTables(logDataSource, schema);
		WorkflowEngine engine = engine(engineDataSource, logDataSource, schema).build().start();
		System.out.println("TransactionalWorker pid " + ProcessHandle.current().pid() + ": node " + engine.nodeId());
		if (args[2].equals("start")) {
			for (int i = 0; i < WORKFLOWS; i++) {
				engine.client().start(TxnChainWorkflow::run, i, StartOptions.withId(workflowId(i)));
			}
			System.out.println("TransactionalWorker: started " + WORKFLOWS + " workflows");
		}
		System.out.flush();
		new CountDownLatch(1).await(); // serve until killed
	}

	private static void createTables(DataSource dataSource, String schema) throws SQLException {
		String app = appSchema(schema);
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			connection.setAutoCommit(true);
			statement.execute("CREATE SCHEMA IF NOT EXISTS " + app);
			statement.execute("CREATE TABLE IF NOT EXISTS " + app
					+ ".txn_row (key text PRIMARY KEY, pid bigint NOT NULL, attempt int NOT NULL)");
			for (String log : new String[] { "txn_execution", "plain_execution" }) {
				statement.execute("CREATE TABLE IF NOT EXISTS " + app + "." + log
						+ " (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, key text NOT NULL, pid bigint NOT NULL)");
			}
		}
	}

}
