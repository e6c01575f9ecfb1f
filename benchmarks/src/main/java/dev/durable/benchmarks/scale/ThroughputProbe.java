package dev.durable.benchmarks.scale;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.benchmarks.compare.CpuCounters;

/**
 * What the throughput measurement of one node count did besides completing workflows, to
 * tell where the time went: the CPU of the node JVMs and of the server per workflow, the
 * engine's notifications by kind (a listening connection of its own), how often the
 * nodes' connections were seen in each wait state (sampled from
 * {@code pg_stat_activity}), and afterwards where the runs ran: how many ended owned by
 * another node than the one whose clients started them, and how many were claimed more
 * than once (epoch above 1).
 */
final class ThroughputProbe implements AutoCloseable {

	/** The engine's notification channel in its default schema. */
	private static final String CHANNEL = "durable_durable";

	private final DataSource dataSource;

	private final List<NodeJvm> nodes;

	private final CpuCounters server;

	private final Map<String, LongAdder> notifications = new ConcurrentHashMap<>();

	private final Map<String, LongAdder> waits = new ConcurrentHashMap<>();

	private final LongAdder samples = new LongAdder();

	private volatile boolean running = true;

	private final Thread listener;

	private final Thread sampler;

	private final Thread counter;

	private final String prefix;

	/** Workflows completed in each second of the phase, all nodes together. */
	private final List<Integer> perSecond = new java.util.concurrent.CopyOnWriteArrayList<>();

	private final long nodesBefore;

	private final long serverBefore;

	private final long[] statsBefore;

	ThroughputProbe(DataSource dataSource, List<NodeJvm> nodes, CpuCounters server, String prefix) {
		this.dataSource = dataSource;
		this.prefix = prefix;
		this.nodes = nodes;
		this.server = server;
		this.nodesBefore = nodes.stream().mapToLong(NodeJvm::cpuNanos).sum();
		this.serverBefore = server.read().postgresNanos();
		this.statsBefore = stats();
		this.listener = Thread.ofPlatform().daemon().name("probe-listen").start(this::listen);
		this.sampler = Thread.ofPlatform().daemon().name("probe-sample").start(this::sample);
		this.counter = Thread.ofPlatform().daemon().name("probe-count").start(this::count);
	}

	/** Counts the completed runs once a second, for the timeline (warm-up included). */
	private void count() {
		JdbcTemplate jdbc = new JdbcTemplate(this.dataSource);
		int last = 0;
		long next = System.nanoTime();
		while (this.running) {
			try {
				next += 1_000_000_000L;
				Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
				Integer done = jdbc.queryForObject("SELECT count(*) FROM durable.workflow_run WHERE workflow_id LIKE ?"
						+ " AND status = 'COMPLETED'", Integer.class, this.prefix + "%");
				int now = (done != null) ? done : last;
				this.perSecond.add(now - last);
				last = now;
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				// the database is going away: the counting ends with the measurement
			}
		}
	}

	private void listen() {
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(true);
			try (Statement statement = connection.createStatement()) {
				statement.execute("LISTEN " + CHANNEL);
			}
			PGConnection pg = connection.unwrap(PGConnection.class);
			while (this.running) {
				PGNotification[] received = pg.getNotifications(100);
				if (received != null) {
					for (PGNotification notification : received) {
						this.notifications.computeIfAbsent(kind(notification.getParameter()), (k) -> new LongAdder())
							.increment();
					}
				}
			}
		}
		catch (SQLException ex) {
			this.notifications.computeIfAbsent("(listener failed: " + ex.getMessage() + ")", (k) -> new LongAdder())
				.increment();
		}
	}

	/** The kind of a notification's target (see the engine's wake-up channel). */
	static String kind(String target) {
		if (target.equals("*")) {
			return "any node";
		}
		if (target.length() == 36 && target.charAt(8) == '-') {
			return "node";
		}
		return switch (target.isEmpty() ? ' ' : target.charAt(0)) {
			case 'R' -> "run";
			case 'O' -> "outputs";
			case 'Q' -> "queue";
			case 'A' -> "task queue";
			default -> "other";
		};
	}

	private void sample() {
		JdbcTemplate jdbc = new JdbcTemplate(this.dataSource);
		while (this.running) {
			try {
				jdbc.query("SELECT application_name, state, coalesce(wait_event_type || ':' || wait_event, 'CPU')"
						+ " FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'node%'",
						(row) -> {
							String state = row.getString(2);
							String key = ("active".equals(state) ? row.getString(3) : state);
							this.waits.computeIfAbsent(key, (k) -> new LongAdder()).increment();
						});
				this.samples.increment();
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				return;
			}
			catch (RuntimeException ex) {
				// the database is going away: the sampling ends with the measurement
			}
		}
	}

	/**
	 * Where the runs started with the prefix ran, by the node ids the node JVMs reported.
	 */
	static String placement(JdbcTemplate jdbc, List<NodeJvm> nodes, String prefix) {
		Map<String, UUID> ids = nodes.stream().collect(Collectors.toMap(NodeJvm::name, NodeJvm::nodeId));
		long[] counts = new long[4]; // runs, owned elsewhere, claimed again, still open
		jdbc.query("SELECT workflow_id, owner_node, epoch, status FROM durable.workflow_run WHERE workflow_id LIKE ?",
				(row) -> {
					String starter = row.getString(1).substring(prefix.length()).split("-")[0];
					counts[0]++;
					if (!ids.getOrDefault(starter, new UUID(0, 0)).equals(row.getObject(2, UUID.class))) {
						counts[1]++;
					}
					if (row.getLong(3) > 1) {
						counts[2]++;
					}
					if ("RUNNING".equals(row.getString(4))) {
						counts[3]++;
					}
				}, prefix + "%");
		// from the start (the run's creation) to its close as stored: the clients'
		// latency less the
		// time they took to learn of the close
		java.util.Map<String, Object> lifetime = jdbc.queryForMap("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY"
				+ " extract(epoch FROM closed_at - created_at) * 1000) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY"
				+ " extract(epoch FROM closed_at - created_at) * 1000) AS p99 FROM durable.workflow_run WHERE workflow_id LIKE ?"
				+ " AND closed_at IS NOT NULL", prefix + "%");
		return String.format(
				"%,d runs: %,d owned by another node than the starting one, %,d claimed again,"
						+ " %,d still open; start to stored close p50 %.1f ms, p99 %.1f ms",
				counts[0], counts[1], counts[2], counts[3], number(lifetime.get("p50")), number(lifetime.get("p99")));
	}

	/**
	 * Transactions committed in the database and WAL syncs of the server so far. A
	 * backend reports its counts when it goes idle, at most once a second: over a phase
	 * of many seconds the difference is close.
	 */
	private long[] stats() {
		try {
			return new JdbcTemplate(this.dataSource).queryForObject(
					"SELECT (SELECT xact_commit FROM pg_stat_database"
							+ " WHERE datname = current_database()), (SELECT wal_sync FROM pg_stat_wal)",
					(row, i) -> new long[] { row.getLong(1), row.getLong(2) });
		}
		catch (RuntimeException ex) {
			return new long[2];
		}
	}

	private static double number(Object value) {
		return (value instanceof Number n) ? n.doubleValue() : Double.NaN;
	}

	/**
	 * Stops probing and describes what it saw, over the given number of workflows
	 * completed.
	 */
	String finish(long workflows, double seconds) {
		close();
		try {
			Thread.sleep(1100); // the backends report their last second
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		long[] statsAfter = stats();
		long nodesUsed = this.nodes.stream().mapToLong(NodeJvm::cpuNanos).sum() - this.nodesBefore;
		long serverUsed = this.server.read().postgresNanos() - this.serverBefore;
		long total = Math.max(1, this.samples.sum());
		String waitShares = new TreeMap<>(this.waits).entrySet()
			.stream()
			.map((e) -> String.format("%s %.1f", e.getKey(), e.getValue().sum() / (double) total))
			.collect(Collectors.joining(", "));
		String notified = new TreeMap<>(this.notifications).entrySet()
			.stream()
			.map((e) -> String.format("%s %.0f/s", e.getKey(), e.getValue().sum() / seconds))
			.collect(Collectors.joining(", "));
		double perWorkflow = Math.max(1, workflows);
		return String.format("per workflow: %.2f transactions, %.2f WAL syncs (%.0f and %.0f per second);"
				+ " CPU per workflow: nodes %.2f ms, PostgreSQL %.2f ms (nodes %.0f ms/s, PostgreSQL %.0f ms/s);"
				+ " notifications: %s; nodes' connections (mean count by state, %d samples): %s;"
				+ " completed per second: %s", (statsAfter[0] - this.statsBefore[0]) / perWorkflow,
				(statsAfter[1] - this.statsBefore[1]) / perWorkflow, (statsAfter[0] - this.statsBefore[0]) / seconds,
				(statsAfter[1] - this.statsBefore[1]) / seconds, nodesUsed / 1e6 / perWorkflow,
				serverUsed / 1e6 / perWorkflow, nodesUsed / 1e6 / seconds, serverUsed / 1e6 / seconds,
				notified.isEmpty() ? "none" : notified, total, waitShares, this.perSecond);
	}

	@Override
	public void close() {
		this.running = false;
		this.sampler.interrupt();
		this.counter.interrupt();
		try {
			this.counter.join(2000);
			this.listener.join(2000);
			this.sampler.join(2000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
