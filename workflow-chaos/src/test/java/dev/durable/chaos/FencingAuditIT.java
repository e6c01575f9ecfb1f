package dev.durable.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fencing audit of the chaos harness catches a stale write: a node that writes a
 * run's history after another node moved the run to a new epoch is reported, and the
 * ordinary sequence (the claimer writes at its epoch) is not. Run on the harness's own
 * server, against a stand-in of the engine's two tables (the audit reads nothing else).
 */
class FencingAuditIT {

	@Test
	void aHistoryRowWrittenByANodeThatLostTheEpochIsAViolation() throws Exception {
		try (PostgresServer server = PostgresServer.start(18190)) {
			try (Connection admin = server.connect(); Statement statement = admin.createStatement()) {
				statement.execute("CREATE SCHEMA durable");
				statement.execute("CREATE SCHEMA chaos");
				statement.execute("CREATE TABLE durable.workflow_run (run_id uuid PRIMARY KEY, epoch bigint NOT NULL)");
				statement.execute("CREATE TABLE durable.history (run_id uuid NOT NULL, seq int NOT NULL,"
						+ " PRIMARY KEY (run_id, seq))");
				// the audit also writes down the nodes' heartbeats (for the network
				// partitions' check)
				statement.execute("CREATE TABLE durable.node (node_id uuid PRIMARY KEY, last_heartbeat timestamptz)");
				FencingAudit.install(admin);
			}
			String run = "'00000000-0000-0000-0000-000000000001'";
			try (Connection a = as(server, "chaos-node1"); Connection b = as(server, "chaos-node2")) {
				execute(a, "INSERT INTO durable.workflow_run VALUES (" + run + ", 0)");
				execute(a, "INSERT INTO durable.history VALUES (" + run + ", 1)");
				execute(b, "UPDATE durable.workflow_run SET epoch = 1 WHERE run_id = " + run);
				execute(b, "INSERT INTO durable.history VALUES (" + run + ", 2)");

				ChaosReport clean = new ChaosReport();
				FencingAudit.check(a, clean);
				assertThat(clean.violations()).isEmpty();

				// node1 wakes up and writes as if it still held the run
				execute(a, "INSERT INTO durable.history VALUES (" + run + ", 3)");
				ChaosReport stale = new ChaosReport();
				FencingAudit.check(a, stale);
				assertThat(stale.violations()).singleElement()
					.asString()
					.contains("history row 3", "written by chaos-node1 at epoch 1", "which chaos-node2 holds");
			}
		}
	}

	private static Connection as(PostgresServer server, String applicationName) throws SQLException {
		Properties properties = new Properties();
		properties.setProperty("user", server.user());
		properties.setProperty("password", server.password());
		properties.setProperty("ApplicationName", applicationName);
		return DriverManager.getConnection(server.url(), properties);
	}

	private static void execute(Connection connection, String sql) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

}
