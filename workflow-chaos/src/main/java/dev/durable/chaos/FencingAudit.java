package dev.durable.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Proves the fencing from the database itself: triggers write down which node (its
 * connections' {@code application_name}) moved each run to each epoch, and which node
 * wrote each history row and at which epoch of its run. A history row written by a node
 * other than the one that claimed the epoch it was written at is a node writing for a run
 * it had lost (a paused node waking up, a killed node's late commit): a violation. The
 * triggers commit or roll back with the engine's own statements, so only what the engine
 * committed is audited.
 */
final class FencingAudit {

	private FencingAudit() {
	}

	/**
	 * Installs the audit once the nodes have created the engine's schema, before any
	 * traffic.
	 */
	static void install(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("CREATE TABLE IF NOT EXISTS chaos.run_epoch (run_id uuid NOT NULL, epoch bigint NOT NULL,"
					+ " node text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp(), PRIMARY KEY (run_id, epoch))");
			statement.execute("CREATE TABLE IF NOT EXISTS chaos.history_writer (run_id uuid NOT NULL, seq int NOT NULL,"
					+ " epoch bigint, node text NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp(),"
					+ " PRIMARY KEY (run_id, seq))");
			// when each node last renewed its lease, for the network partitions' check
			// (NetworkFaults)
			statement
				.execute("CREATE TABLE IF NOT EXISTS chaos.node_heartbeat (node_id uuid NOT NULL, node text NOT NULL,"
						+ " last_heartbeat timestamptz NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())");
			statement
				.execute("CREATE OR REPLACE FUNCTION chaos.audit_heartbeat() RETURNS trigger LANGUAGE plpgsql AS $$"
						+ " BEGIN INSERT INTO chaos.node_heartbeat (node_id, node, last_heartbeat)"
						+ " VALUES (NEW.node_id, current_setting('application_name'), NEW.last_heartbeat); RETURN NULL; END $$");
			statement.execute("DROP TRIGGER IF EXISTS chaos_node_heartbeat ON durable.node");
			statement.execute("CREATE TRIGGER chaos_node_heartbeat AFTER INSERT OR UPDATE ON durable.node"
					+ " FOR EACH ROW EXECUTE FUNCTION chaos.audit_heartbeat()");
			statement.execute("CREATE OR REPLACE FUNCTION chaos.audit_epoch() RETURNS trigger LANGUAGE plpgsql AS $$"
					+ " BEGIN INSERT INTO chaos.run_epoch (run_id, epoch, node)"
					+ " VALUES (NEW.run_id, NEW.epoch, current_setting('application_name'))"
					+ " ON CONFLICT (run_id, epoch) DO NOTHING; RETURN NULL; END $$");
			statement.execute("CREATE OR REPLACE FUNCTION chaos.audit_history() RETURNS trigger LANGUAGE plpgsql AS $$"
					+ " BEGIN INSERT INTO chaos.history_writer (run_id, seq, epoch, node)"
					+ " SELECT NEW.run_id, NEW.seq, (SELECT r.epoch FROM durable.workflow_run r WHERE r.run_id = NEW.run_id),"
					+ " current_setting('application_name') ON CONFLICT (run_id, seq) DO NOTHING; RETURN NULL; END $$");
			statement.execute("DROP TRIGGER IF EXISTS chaos_epoch_insert ON durable.workflow_run");
			statement.execute("CREATE TRIGGER chaos_epoch_insert AFTER INSERT ON durable.workflow_run"
					+ " FOR EACH ROW EXECUTE FUNCTION chaos.audit_epoch()");
			statement.execute("DROP TRIGGER IF EXISTS chaos_epoch_update ON durable.workflow_run");
			statement.execute("CREATE TRIGGER chaos_epoch_update AFTER UPDATE ON durable.workflow_run FOR EACH ROW"
					+ " WHEN (NEW.epoch IS DISTINCT FROM OLD.epoch) EXECUTE FUNCTION chaos.audit_epoch()");
			statement.execute("DROP TRIGGER IF EXISTS chaos_history_insert ON durable.history");
			statement.execute("CREATE TRIGGER chaos_history_insert AFTER INSERT ON durable.history"
					+ " FOR EACH ROW EXECUTE FUNCTION chaos.audit_history()");
		}
	}

	/**
	 * History rows written by a node that did not hold the epoch they were written at.
	 */
	static void check(Connection connection, ChaosReport report) throws SQLException {
		List<String> stale = new ArrayList<>();
		long audited;
		long epochs;
		try (Statement statement = connection.createStatement()) {
			try (ResultSet rows = statement.executeQuery("SELECT w.run_id, w.seq, w.epoch, w.node, e.node"
					+ " FROM chaos.history_writer w LEFT JOIN chaos.run_epoch e"
					+ " ON e.run_id = w.run_id AND e.epoch = w.epoch"
					+ " WHERE e.node IS DISTINCT FROM w.node ORDER BY w.at LIMIT 20")) {
				while (rows.next()) {
					stale.add("history row " + rows.getInt(2) + " of run " + rows.getString(1) + " written by "
							+ rows.getString(4) + " at epoch " + rows.getString(3) + ", which "
							+ ((rows.getString(5) != null) ? rows.getString(5) + " holds" : "no node claimed"));
				}
			}
			try (ResultSet rows = statement.executeQuery(
					"SELECT (SELECT count(*) FROM chaos.history_writer), (SELECT count(*) FROM chaos.run_epoch)")) {
				rows.next();
				audited = rows.getLong(1);
				epochs = rows.getLong(2);
			}
		}
		stale.forEach((row) -> report.violation("fencing: " + row));
		report.line("fencing: " + audited + " history rows audited against " + epochs + " epoch changes, "
				+ (stale.isEmpty() ? "each written by the node that held its run's epoch"
						: "STALE WRITES (first 20 above)"));
	}

}
