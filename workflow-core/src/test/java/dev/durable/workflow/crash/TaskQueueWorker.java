package dev.durable.workflow.crash;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.TestDatabase;

/**
 * The worker-only JVM of {@code TaskQueueWorkerIT}: runs no workflow, only the activities
 * of task queue {@link #QUEUE}, each logged (workflow id, attempt, pid) before it works
 * for 1.5 s. Arguments: {@code <jdbcUrl> <schema> <testPid>}. Serves until killed (or the
 * test JVM exits).
 */
public final class TaskQueueWorker {

	public static final String QUEUE = "it-gpu";

	private TaskQueueWorker() {
	}

	/**
	 * Implemented only in the worker JVMs; the workflow JVM schedules it by its
	 * interface.
	 */
	@Activity
	public interface Renders {

		@ActivityMethod(taskQueue = QUEUE, initialInterval = "PT0.2S")
		String render(String scene);

	}

	public static String logTable(String schema) {
		return schema + "_log.render_log";
	}

	public static void createLogTable(DataSource dataSource, String schema) throws SQLException {
		try (Connection connection = dataSource.getConnection()) {
			connection.setAutoCommit(true);
			connection.createStatement().execute("CREATE SCHEMA IF NOT EXISTS " + schema + "_log");
			connection.createStatement()
				.execute("CREATE TABLE IF NOT EXISTS " + logTable(schema) + " (id bigint GENERATED ALWAYS AS IDENTITY,"
						+ " workflow_id text NOT NULL, attempt int NOT NULL, pid bigint NOT NULL)");
		}
	}

	static final class LoggingRenders implements Renders {

		private final DataSource log;

		private final String schema;

		LoggingRenders(DataSource log, String schema) {
			this.log = log;
			this.schema = schema;
		}

		@Override
		public String render(String scene) {
			long pid = ProcessHandle.current().pid();
			try (Connection connection = this.log.getConnection();
					PreparedStatement insert = connection.prepareStatement(
							"INSERT INTO " + logTable(this.schema) + " (workflow_id, attempt, pid) VALUES (?, ?, ?)")) {
				insert.setString(1, ActivityContext.current().info().workflowId());
				insert.setInt(2, ActivityContext.current().info().attempt());
				insert.setLong(3, pid);
				insert.executeUpdate();
				Thread.sleep(1500);
			}
			catch (SQLException ex) {
				throw new IllegalStateException(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted");
			}
			return scene + "@" + pid;
		}

	}

	public static void main(String[] args) throws Exception {
		String url = args[0];
		String schema = args[1];
		CrashWorker.exitWithTheTest(Long.parseLong(args[2]));
		HikariDataSource engineDataSource = TestDatabase.pool(url, 8);
		HikariDataSource logDataSource = TestDatabase.pool(url, 4);
		WorkflowEngine engine = WorkflowEngine.builder()
			.dataSource(engineDataSource)
			.schema(schema)
			.runWorkflows(false)
			.activityTaskQueues(QUEUE)
			.registerActivities(new LoggingRenders(logDataSource, schema))
			.maxConcurrentActivities(4)
			.pollInterval(Duration.ofMillis(200))
			.heartbeatInterval(Duration.ofMillis(300))
			.deadAfter(Duration.ofSeconds(2))
			.build()
			.start();
		System.out.println("TaskQueueWorker pid " + ProcessHandle.current().pid() + ": node " + engine.nodeId()
				+ " serving task queue " + QUEUE);
		System.out.flush();
		new CountDownLatch(1).await();
	}

}
