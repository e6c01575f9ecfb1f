package dev.durable.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

/**
 * The faults a network does, on {@link ChaosNetwork}: a node partitioned from the
 * database (both ways, or only the database's answers dropped) past {@code dead-after}
 * while it keeps running, the nodes partitioned from each other, packet loss on a node's
 * link, latency between a node and the database (through {@link DelayProxy}). A partition
 * from the database is an outage window for that node. During one, the harness asks the
 * node's REST API every second, with a short timeout, and records whether it answers
 * {@code 503} or hangs: once its lease has run out, a hang is a violation. After the run,
 * {@link #check} requires that the partitioned node wrote no history row and claimed no
 * run from the end of its lease to the heal, and that another node took over the runs it
 * owned.
 */
final class NetworkFaults {

	/**
	 * How long a probe of a partitioned node waits for an answer before it counts as a
	 * hang.
	 */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

	/** The loss on one node's link. */
	static final double LOSS = 0.02;

	/**
	 * The latency added between one node and the database, plus up to
	 * {@link #JITTER_MILLIS}.
	 */
	static final long LATENCY_MILLIS = 10;

	static final long JITTER_MILLIS = 5;

	/**
	 * A partition of a node from the database: who, how, when, and the runs it owned at
	 * its start.
	 */
	record Partition(String node, String how, Instant from, Instant to, List<String> ownedRuns) {
	}

	/**
	 * A probe sent {@code atMillis} into the partition, answered (or given up)
	 * {@code tookMillis} later.
	 */
	record Probe(long atMillis, long tookMillis, String answer) {
	}

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private final ChaosNetwork network;

	private final @Nullable DelayProxy proxy;

	private final @Nullable NodeProcess proxied;

	private final List<Integer> databasePorts;

	private final List<NodeProcess> nodes;

	private final ChaosDatabase database;

	private final Outages outages;

	private final ChaosReport report;

	private final Duration length;

	private final List<Partition> partitions = new CopyOnWriteArrayList<>();

	/**
	 * @param proxy the delaying proxy {@code proxied} reaches the database through, or
	 * {@code null}
	 * @param databasePorts the ports a partition from the database drops (the server's,
	 * the proxy's)
	 * @param length how long the nodes' partition, the loss and the latency last
	 */
	NetworkFaults(ChaosNetwork network, @Nullable DelayProxy proxy, @Nullable NodeProcess proxied,
			List<Integer> databasePorts, List<NodeProcess> nodes, ChaosDatabase database, Outages outages,
			ChaosReport report, Duration length) {
		this.network = network;
		this.proxy = proxy;
		this.proxied = proxied;
		this.databasePorts = List.copyOf(databasePorts);
		this.nodes = nodes;
		this.database = database;
		this.outages = outages;
		this.report = report;
		this.length = length;
	}

	List<Partition> partitions() {
		return List.copyOf(this.partitions);
	}

	private int index(NodeProcess node) {
		return this.nodes.indexOf(node) + 1;
	}

	/**
	 * Partitions {@code node} from the database for {@code dead-after} plus
	 * {@code extra}: both ways, or ({@code oneWay}) only the database's answers dropped,
	 * what the node sends arriving.
	 */
	void partitionFromDatabase(NodeProcess node, boolean oneWay, Duration extra) throws Exception {
		String how = oneWay ? "one-way partition (the database's packets to it dropped)"
				: "partition from the database (both ways)";
		Duration lasting = ChaosOptions.DEAD_AFTER.plus(extra);
		List<String> owned = ownedRuns(node);
		Outages.Window window = this.outages.begin(node.name, how);
		List<Probe> probes = new CopyOnWriteArrayList<>();
		Thread prober;
		Instant from;
		try {
			this.network.partitionFromDatabase(index(node), this.databasePorts, true, !oneWay);
			// from when the rules hold (adding them takes a while on a loaded machine)
			from = Instant.now();
			this.outages.partitioned(window, from);
			prober = Thread.ofVirtual().start(() -> probe(node, from, lasting, probes));
			Thread.sleep(lasting.toMillis());
		}
		finally {
			this.network.heal(index(node));
		}
		Instant to = Instant.now();
		prober.join();
		this.outages.end(window);
		this.partitions.add(new Partition(node.name, how, from, to, owned));
		this.report.count("faults: network " + (oneWay ? "one-way partition" : "partition from the database"));
		this.report.line(node.name + ": " + how + " for " + lasting.toSeconds() + " s (dead-after "
				+ ChaosOptions.DEAD_AFTER.toSeconds() + " s), then healed; it owned " + owned.size()
				+ " open runs at its start");
		judgeProbes(node.name, how, lasting, probes, this.report);
	}

	/**
	 * The open runs {@code node} owns now (its node ids found through the heartbeat
	 * audit).
	 */
	private List<String> ownedRuns(NodeProcess node) throws SQLException {
		List<String> runs = new ArrayList<>();
		try (Connection connection = this.database.connect();
				PreparedStatement statement = connection
					.prepareStatement("SELECT run_id::text FROM durable.workflow_run"
							+ " WHERE status = 'RUNNING' AND owner_node IN (SELECT node_id FROM chaos.node_heartbeat"
							+ " WHERE node = ?)")) {
			statement.setString(1, "chaos-" + node.name);
			try (ResultSet rows = statement.executeQuery()) {
				while (rows.next()) {
					runs.add(rows.getString(1));
				}
			}
		}
		return runs;
	}

	/**
	 * Asks the node's REST API (a read that needs the database) every second while it is
	 * cut off.
	 */
	private void probe(NodeProcess node, Instant from, Duration lasting, List<Probe> probes) {
		long end = from.plus(lasting).minusSeconds(1).toEpochMilli();
		int n = 0;
		while (System.currentTimeMillis() < end) {
			long at = System.currentTimeMillis() - from.toEpochMilli();
			HttpRequest request = HttpRequest
				.newBuilder(URI.create(node.baseUrl() + "/durable/workflows/network-probe-" + n++))
				.timeout(PROBE_TIMEOUT)
				.GET()
				.build();
			String answer;
			try {
				answer = Integer.toString(this.http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
			}
			catch (HttpTimeoutException ex) {
				answer = "hang";
			}
			catch (IOException ex) {
				answer = "connection failure";
			}
			catch (InterruptedException ex) {
				return;
			}
			probes.add(new Probe(at, System.currentTimeMillis() - from.toEpochMilli() - at, answer));
			long next = from.toEpochMilli() + at + 1000 - System.currentTimeMillis();
			if (next > 0) {
				try {
					Thread.sleep(next);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}
	}

	/**
	 * Reports the probes' answers. A probe sent after the lease ran out that got no
	 * answer, or another answer than 503 before the heal, is a violation.
	 */
	static void judgeProbes(String node, String how, Duration lasting, List<Probe> probes, ChaosReport report) {
		Map<String, Integer> answers = new TreeMap<>();
		probes.forEach((p) -> answers.merge(p.answer(), 1, Integer::sum));
		report.line("  REST probes of " + node + " during its " + how + " (timeout " + PROBE_TIMEOUT.toSeconds()
				+ " s, one a second): " + answers + "; "
				+ probes.stream()
					.map((p) -> "+" + p.atMillis() / 100 / 10.0 + "s " + p.answer() + " in " + p.tookMillis() + " ms")
					.toList());
		long leaseMillis = ChaosOptions.DEAD_AFTER.toMillis();
		for (Probe probe : probes) {
			boolean answeredBeforeHeal = probe.atMillis() + probe.tookMillis() < lasting.toMillis();
			if (probe.atMillis() >= leaseMillis && !probe.answer().equals("503")
					&& (probe.answer().equals("hang") || answeredBeforeHeal)) {
				report.violation(node + " answered a REST probe sent " + probe.atMillis() / 100 / 10.0 + " s into its "
						+ how + ", after its lease ran out, with " + probe.answer() + " instead of 503");
			}
		}
		if (probes.isEmpty()) {
			report.violation("no REST probe of " + node + " during its " + how);
		}
	}

	/** The nodes partitioned from each other (each still reaches the database). */
	void partitionNodes() throws Exception {
		try {
			this.network.partitionNodes();
			Thread.sleep(this.length.toMillis());
		}
		finally {
			this.network.healAll();
		}
		this.report.count("faults: network nodes partitioned from each other");
		this.report
			.line("nodes partitioned from each other (not from the database) for " + this.length.toSeconds() + " s");
	}

	/** Packet loss on {@code node}'s link, both ways. */
	void loss(NodeProcess node) throws Exception {
		try {
			this.network.loss(index(node), LOSS);
			Thread.sleep(this.length.toMillis());
		}
		finally {
			this.network.heal(index(node));
		}
		this.report.count("faults: network packet loss");
		this.report.line(node.name + ": " + Math.round(LOSS * 100) + "% packet loss both ways for "
				+ this.length.toSeconds() + " s");
	}

	/** Latency and jitter between the proxied node and the database. */
	void latency() throws Exception {
		if (this.proxy == null || this.proxied == null || !this.proxied.isServing()) {
			this.report.line("latency skipped: the node behind the delaying proxy does not serve");
			return;
		}
		try {
			this.proxy.delay(LATENCY_MILLIS, JITTER_MILLIS);
			Thread.sleep(this.length.toMillis());
		}
		finally {
			this.proxy.delay(0, 0);
		}
		this.report.count("faults: network latency");
		this.report.line(this.proxied.name + ": " + LATENCY_MILLIS + "-" + (LATENCY_MILLIS + JITTER_MILLIS)
				+ " ms latency each way to the database for " + this.length.toSeconds() + " s");
	}

	/**
	 * After the run: from the end of its lease (its last heartbeat written plus
	 * {@code dead-after}) to the heal, a partitioned node wrote no history row and
	 * claimed no run, and another node took over at least one of the runs it owned.
	 */
	void check(Connection connection) throws SQLException {
		for (Partition partition : this.partitions) {
			String application = "chaos-" + partition.node();
			Timestamp lastRenewal;
			try (PreparedStatement statement = connection.prepareStatement(
					"SELECT max(last_heartbeat) FROM" + " chaos.node_heartbeat WHERE node = ? AND at < ?")) {
				statement.setString(1, application);
				statement.setTimestamp(2, Timestamp.from(partition.to()));
				try (ResultSet rows = statement.executeQuery()) {
					rows.next();
					lastRenewal = rows.getTimestamp(1);
				}
			}
			if (lastRenewal == null) {
				this.report
					.violation("no heartbeat of " + partition.node() + " recorded before its " + partition.how());
				continue;
			}
			Instant leaseEnd = lastRenewal.toInstant().plus(ChaosOptions.DEAD_AFTER);
			long writes = count(connection, "chaos.history_writer", application, leaseEnd, partition.to());
			long claims = count(connection, "chaos.run_epoch", application, leaseEnd, partition.to());
			long takenOver;
			Timestamp firstTakeover;
			try (PreparedStatement statement = connection.prepareStatement("SELECT count(DISTINCT run_id), min(at) FROM"
					+ " chaos.run_epoch WHERE run_id::text = ANY (?) AND node <> ? AND at BETWEEN ? AND ?")) {
				statement.setArray(1, connection.createArrayOf("text", partition.ownedRuns().toArray()));
				statement.setString(2, application);
				statement.setTimestamp(3, Timestamp.from(partition.from()));
				statement.setTimestamp(4, Timestamp.from(partition.to()));
				try (ResultSet rows = statement.executeQuery()) {
					rows.next();
					takenOver = rows.getLong(1);
					firstTakeover = rows.getTimestamp(2);
				}
			}
			this.report.line(String.format("%s, %s: last heartbeat written %.1f s into it, lease out at %.1f s; after"
					+ " that, until the heal at %.1f s: %d history rows and %d claims by it; %d of the %d runs it owned"
					+ " taken over by another node%s", partition.node(), partition.how(),
					seconds(partition.from(), lastRenewal.toInstant()), seconds(partition.from(), leaseEnd),
					seconds(partition.from(), partition.to()), writes, claims, takenOver, partition.ownedRuns().size(),
					(firstTakeover != null) ? String.format(" (the first %.1f s into it)",
							seconds(partition.from(), firstTakeover.toInstant())) : ""));
			if (writes > 0 || claims > 0) {
				this.report.violation(partition.node() + " wrote " + writes + " history rows and claimed " + claims
						+ " runs after its lease ran out during its " + partition.how() + " (it must stop by itself)");
			}
			if (!partition.ownedRuns().isEmpty() && takenOver == 0) {
				this.report.violation("no other node took over any of the " + partition.ownedRuns().size() + " runs "
						+ partition.node() + " owned during its " + partition.how());
			}
		}
	}

	private static long count(Connection connection, String table, String application, Instant from, Instant to)
			throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT count(*) FROM " + table + " WHERE node = ? AND at > ? AND at < ?")) {
			statement.setString(1, application);
			statement.setTimestamp(2, Timestamp.from(from));
			statement.setTimestamp(3, Timestamp.from(to));
			try (ResultSet rows = statement.executeQuery()) {
				rows.next();
				return rows.getLong(1);
			}
		}
	}

	private static double seconds(Instant from, Instant to) {
		return Duration.between(from, to).toMillis() / 1000.0;
	}

}
