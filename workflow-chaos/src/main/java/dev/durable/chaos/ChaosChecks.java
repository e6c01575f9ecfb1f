package dev.durable.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What must hold after a chaos run, read from the database the nodes shared and from
 * their logs: every run closed and completed once, with the signal it was sent, each
 * signal received once, no step, child or completion recorded twice, every step executed
 * (at least once), one run per workflow id, and no ERROR line outside a database outage.
 */
final class ChaosChecks {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ChaosDatabase database;

	private final ChaosReport report;

	ChaosChecks(ChaosDatabase database, ChaosReport report) {
		this.database = database;
		this.report = report;
	}

	static void createSideTable(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement()) {
			statement.execute("CREATE SCHEMA IF NOT EXISTS chaos");
			statement.execute("CREATE TABLE IF NOT EXISTS chaos.step_execution (id bigserial PRIMARY KEY,"
					+ " workflow_id text NOT NULL, step int NOT NULL, attempt int NOT NULL, node text NOT NULL,"
					+ " at timestamptz NOT NULL DEFAULT clock_timestamp())");
		}
	}

	/**
	 * Workflow ids with more than one open run right now (sampled while the faults go
	 * on).
	 */
	List<String> twoOpenRuns(Connection connection) throws SQLException {
		List<String> ids = new ArrayList<>();
		try (Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT workflow_id FROM durable.workflow_run WHERE status"
						+ " = 'RUNNING' GROUP BY workflow_id HAVING count(*) > 1")) {
			while (rows.next()) {
				ids.add(rows.getString(1));
			}
		}
		return ids;
	}

	/** How many of the chaos runs are still open. */
	int open(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT count(*) FROM durable.workflow_run WHERE workflow_type"
						+ " = 'chaos' AND status = 'RUNNING'")) {
			rows.next();
			return rows.getInt(1);
		}
	}

	void afterRun(int workflows) throws SQLException, IOException {
		try (Connection connection = this.database.connect()) {
			statuses(connection, workflows);
			histories(connection);
			executions(connection);
		}
	}

	private void statuses(Connection connection, int workflows) throws SQLException {
		Map<String, Integer> byStatus = new TreeMap<>();
		try (Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT r.workflow_id, r.status, convert_from(p.result, 'UTF8')"
						+ " FROM durable.workflow_run r LEFT JOIN durable.run_payload p ON p.run_id = r.run_id"
						+ " WHERE r.workflow_type = 'chaos'")) {
			Map<String, Integer> runsPerId = new HashMap<>();
			while (rows.next()) {
				String id = rows.getString(1);
				String status = rows.getString(2);
				byStatus.merge(status, 1, Integer::sum);
				runsPerId.merge(id, 1, Integer::sum);
				if ("COMPLETED".equals(status)
						&& !("\"" + ChaosHarness.signalPayload(id) + "\"").equals(rows.getString(3))) {
					this.report.violation(
							"run " + id + " completed with " + rows.getString(3) + ", not the signal it was sent");
				}
				else if (!"COMPLETED".equals(status)) {
					this.report.violation("run " + id + " is " + status);
				}
			}
			runsPerId.forEach((id, runs) -> {
				if (runs > 1) {
					this.report.violation("workflow id " + id + " has " + runs + " runs");
				}
			});
			if (runsPerId.size() != workflows) {
				this.report.violation(workflows + " workflows started, " + runsPerId.size() + " in the database");
			}
		}
		this.report.line("runs by status: " + byStatus);
	}

	/** Per run: each completion, child close and signal recorded once, the close once. */
	private void histories(Connection connection) throws SQLException, IOException {
		Map<String, Map<String, Integer>> perRun = new HashMap<>();
		try (PreparedStatement statement = connection.prepareStatement("SELECT r.workflow_id, r.workflow_type,"
				+ " h.events FROM durable.history h JOIN durable.workflow_run r ON r.run_id = h.run_id"
				+ " WHERE r.workflow_type IN ('chaos', 'chaos-child')")) {
			statement.setFetchSize(500);
			try (ResultSet rows = statement.executeQuery()) {
				while (rows.next()) {
					Map<String, Integer> counts = perRun.computeIfAbsent(rows.getString(1), (k) -> new HashMap<>());
					for (JsonNode event : JSON.readTree(rows.getBytes(3))) {
						String type = event.path("type").asString();
						String key = switch (type) {
							case "ACTIVITY_COMPLETED", "CHILD_CLOSED", "TIMER_FIRED", "CHILD_STARTED" ->
								type + "#" + event.path("seq").asLong();
							case "SIGNAL_RECEIVED", "WORKFLOW_COMPLETED" -> type;
							default -> null;
						};
						if (key != null) {
							counts.merge(key, 1, Integer::sum);
						}
					}
				}
			}
		}
		int checked = 0;
		for (Map.Entry<String, Map<String, Integer>> run : perRun.entrySet()) {
			boolean child = run.getKey().endsWith(":child");
			Map<String, Integer> counts = run.getValue();
			counts.forEach((key, n) -> {
				if (n > 1) {
					this.report.violation("run " + run.getKey() + " recorded " + key + " " + n + " times");
				}
			});
			if (!child && counts.getOrDefault("SIGNAL_RECEIVED", 0) != 1) {
				this.report.violation("run " + run.getKey() + " received its signal "
						+ counts.getOrDefault("SIGNAL_RECEIVED", 0) + " times");
			}
			checked++;
		}
		this.report.line("histories checked: " + checked + " runs (parents and children)");
	}

	/** Executions per step: at least one each; the distribution of repeats. */
	private void executions(Connection connection) throws SQLException {
		Map<Integer, Integer> distribution = new TreeMap<>();
		try (Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT n, count(*) FROM (SELECT workflow_id, step, count(*) n"
						+ " FROM chaos.step_execution GROUP BY workflow_id, step) s GROUP BY n ORDER BY n")) {
			while (rows.next()) {
				distribution.put(rows.getInt(1), rows.getInt(2));
			}
		}
		this.report.line("activity executions per step (executions: steps): " + distribution);
		try (Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery("SELECT r.workflow_id FROM durable.workflow_run r WHERE"
						+ " r.workflow_type = 'chaos' AND r.status = 'COMPLETED' AND (SELECT count(DISTINCT step) FROM"
						+ " chaos.step_execution e WHERE e.workflow_id = r.workflow_id) <> " + ChaosWorkflow.STEPS)) {
			while (rows.next()) {
				this.report.violation("run " + rows.getString(1) + " completed without executing each of its "
						+ ChaosWorkflow.STEPS + " steps");
			}
		}
	}

	/**
	 * For each SIGKILL, how long until another node executed the next step of a run whose
	 * last step before the kill was on the killed node (takeover plus the time to that
	 * step).
	 */
	void takeovers(List<Faults.Kill> kills) throws SQLException {
		List<Long> millis = new ArrayList<>();
		try (Connection connection = this.database.connect();
				PreparedStatement statement = connection.prepareStatement("SELECT extract(epoch FROM (min(a.at) - ?))"
						+ " * 1000 FROM chaos.step_execution a JOIN (SELECT workflow_id, max(at) last FROM"
						+ " chaos.step_execution WHERE at < ? GROUP BY workflow_id) b ON b.workflow_id = a.workflow_id"
						+ " WHERE a.at > ? AND a.node <> ? AND EXISTS (SELECT 1 FROM chaos.step_execution c WHERE"
						+ " c.workflow_id = b.workflow_id AND c.at = b.last AND c.node = ?) GROUP BY a.workflow_id")) {
			for (Faults.Kill kill : kills) {
				java.sql.Timestamp at = java.sql.Timestamp.from(kill.at());
				statement.setTimestamp(1, at);
				statement.setTimestamp(2, at);
				statement.setTimestamp(3, at);
				statement.setString(4, kill.node());
				statement.setString(5, kill.node());
				try (ResultSet rows = statement.executeQuery()) {
					while (rows.next()) {
						millis.add(rows.getLong(1));
					}
				}
			}
		}
		millis.sort(Long::compare);
		if (millis.isEmpty()) {
			this.report.line("takeover: no run was mid-way on a killed node");
			return;
		}
		this.report.line(String.format(
				"takeover after SIGKILL (kill to the next step on another node, %d runs):"
						+ " p50 %.1f s, p90 %.1f s, max %.1f s",
				millis.size(), millis.get(millis.size() / 2) / 1000.0, millis.get(millis.size() * 9 / 10) / 1000.0,
				millis.get(millis.size() - 1) / 1000.0));
	}

	/** ERROR lines of the node logs; outside a database outage each is a violation. */
	void logs(List<NodeProcess> nodes, Outages outages) throws IOException {
		for (NodeProcess node : nodes) {
			if (!Files.exists(node.log)) {
				continue;
			}
			int inOutage = 0;
			for (String line : Files.readAllLines(node.log, StandardCharsets.UTF_8)) {
				if (!line.contains(" ERROR ")) {
					continue;
				}
				Instant at = timestamp(line);
				if (at != null && outages.covers(at, node.name)) {
					inOutage++;
				}
				else {
					this.report.violation("ERROR in " + node.log.getFileName() + ": "
							+ ((line.length() > 400) ? line.substring(0, 400) + "..." : line));
				}
			}
			if (inOutage > 0) {
				this.report.line(node.name + ": " + inOutage + " ERROR lines during database outages");
			}
		}
	}

	private static Instant timestamp(String line) {
		int space = line.indexOf(' ');
		if (space < 0) {
			return null;
		}
		try {
			return java.time.OffsetDateTime.parse(line.substring(0, space)).toInstant();
		}
		catch (java.time.format.DateTimeParseException ex) {
			return null;
		}
	}

	static Duration since(long nanos) {
		return Duration.ofNanos(System.nanoTime() - nanos);
	}

}
