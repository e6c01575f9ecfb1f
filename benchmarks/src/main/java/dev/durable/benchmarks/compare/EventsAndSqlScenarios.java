package dev.durable.benchmarks.compare;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.benchmarks.LatencyStats;

/**
 * Durable alone, two pairs of lines set against each other within one run: waking parked
 * runs with one event on a topic or with a signal each ({@code topic}), and starting
 * workflows with the SQL function {@code start_workflow} or with the Java client
 * ({@code sqlstart}).
 * <p>
 * Both pairs time the runs by their {@code closed_at} in the database (the time of the
 * workflow task that closed each run): the last one ends the measured time. A woken run's
 * latency is its {@code closed_at} after the wake's start (the publish, or the first
 * signal); a start's latency is the start call's time, and the notes give each run's
 * {@code created_at} to {@code closed_at}. The harness sees that every run closed by
 * polling the engine's open runs every 50 ms on the engine's pool (a read-only
 * transaction each, counted with the engine's).
 */
final class EventsAndSqlScenarios {

	/**
	 * Client threads: the signal senders, the parking starts and the starting clients.
	 */
	static final int CLIENTS = 16;

	private static final String SCHEMA = "durable";

	private static final Duration POLL = Duration.ofMillis(50);

	private static final Duration TIMEOUT = Duration.ofMinutes(10);

	private final ComparisonBenchmark.Options options;

	private final PgCounters counters;

	private final ComparisonReport report;

	EventsAndSqlScenarios(ComparisonBenchmark.Options options, PgCounters counters, ComparisonReport report) {
		this.options = options;
		this.counters = counters;
		this.report = report;
	}

	static String wakeScenario(int count) {
		return String.format("wake %,d parked runs: one event vs a signal each (%d sending threads)", count, CLIENTS);
	}

	static String startScenario(int count) {
		return String.format("start %,d workflows that return their input: SQL vs client (%d clients)", count, CLIENTS);
	}

	/**
	 * {@code count} runs parked in {@code Workflows.awaitEvent} on one topic, woken by
	 * one publish; then {@code count} runs parked in {@code Workflows.receive}, woken by
	 * a signal each from {@value #CLIENTS} threads. Each side on an engine of its own,
	 * for every round. Timing starts once the database shows every run parked (its wait
	 * row, or its first task committed with no pending input).
	 */
	void wake(Supplier<DurableContender> factory, int count) {
		String scenario = wakeScenario(count);
		for (int round = 1; round <= this.options.rounds(); round++) {
			try (DurableContender engine = factory.get()) {
				if (!this.options.warmup().isZero()) {
					int warm = Math.max(1, Math.min(count / 10, 1000));
					wakeByEvent(engine, warm);
					wakeBySignals(engine, warm);
				}
				Measured m = wakeByEvent(engine, count);
				this.report.record(scenario, ComparisonReport.DURABLE_ONE_EVENT, round, m.loop(), m.delta(),
						String.format("publish() took %.1f ms", m.clientNanos() / 1e6));
			}
			try (DurableContender engine = factory.get()) {
				if (!this.options.warmup().isZero()) {
					int warm = Math.max(1, Math.min(count / 10, 1000));
					wakeBySignals(engine, warm);
					wakeByEvent(engine, warm);
				}
				Measured m = wakeBySignals(engine, count);
				this.report.record(scenario, ComparisonReport.DURABLE_SIGNALS, round, m.loop(), m.delta(), String
					.format("signals sent in %.0f ms, %.0f/s", m.clientNanos() / 1e6, count / (m.clientNanos() / 1e9)));
			}
		}
		this.report.ratio(scenario, "**ratio one event/signals**", ComparisonReport.DURABLE_ONE_EVENT,
				ComparisonReport.DURABLE_SIGNALS);
	}

	private Measured wakeByEvent(DurableContender engine, int count) {
		String prefix = "evt-" + ComparisonScenarios.shortId();
		List<String> ids = ids(prefix, count);
		ClientLoops.loop(CLIENTS, count, (i) -> engine.startEventWaiting(ids.get(i)));
		JdbcTemplate jdbc = new JdbcTemplate(engine.pool());
		awaitCount(jdbc, count, "runs waiting on the topic",
				"SELECT count(*) FROM " + SCHEMA + ".event_wait w JOIN " + SCHEMA
						+ ".workflow_run r ON r.run_id = w.run_id WHERE w.namespace = 'default' AND w.topic = ?"
						+ " AND r.namespace = 'default' AND r.workflow_id >= ? AND r.workflow_id < ?",
				DurableBenchWorkflows.TOPIC, low(prefix), high(prefix));
		PgCounters.Snapshot before = this.counters.read(engine);
		Instant start = Instant.now();
		long begin = System.nanoTime();
		engine.publish(Map.of("wave", prefix));
		long publishNanos = System.nanoTime() - begin;
		awaitClosed(jdbc, prefix, count);
		PgCounters.Snapshot delta = this.counters.read(engine).minus(before);
		return new Measured(closedSince(jdbc, prefix, count, start), delta, publishNanos);
	}

	private Measured wakeBySignals(DurableContender engine, int count) {
		String prefix = "sig-" + ComparisonScenarios.shortId();
		List<String> ids = ids(prefix, count);
		ClientLoops.loop(CLIENTS, count, (i) -> engine.startWaiting(ids.get(i)));
		JdbcTemplate jdbc = new JdbcTemplate(engine.pool());
		awaitCount(jdbc, count, "runs parked on the signal",
				"SELECT count(*) FROM " + SCHEMA + ".workflow_run WHERE namespace = 'default'"
						+ " AND workflow_id >= ? AND workflow_id < ? AND status = 'RUNNING' AND history_seq >= 1"
						+ " AND NOT pending_input",
				low(prefix), high(prefix));
		PgCounters.Snapshot before = this.counters.read(engine);
		Instant start = Instant.now();
		long begin = System.nanoTime();
		ClientLoops.loop(CLIENTS, count, (i) -> engine.signal(ids.get(i)));
		long sendNanos = System.nanoTime() - begin;
		awaitClosed(jdbc, prefix, count);
		PgCounters.Snapshot delta = this.counters.read(engine).minus(before);
		engine.forgetWaiting(ids);
		return new Measured(closedSince(jdbc, prefix, count, start), delta, sendNanos);
	}

	/**
	 * {@code count} starts of a workflow that returns its input, by {@value #CLIENTS}
	 * client threads: one {@code SELECT durable.start_workflow(...)} per transaction over
	 * plain JDBC on the engine's pool, then {@code client.start(...)} (which runs the
	 * first task, here the whole run, in the call). Each side on an engine of its own,
	 * for every round; before measuring, a fifth of the count (at most 2,000) started and
	 * closed, unmeasured.
	 */
	void starts(Supplier<DurableContender> factory, int count) {
		String scenario = startScenario(count);
		for (int round = 1; round <= this.options.rounds(); round++) {
			for (boolean sql : new boolean[] { true, false }) {
				try (DurableContender engine = factory.get()) {
					if (!this.options.warmup().isZero()) {
						startAll(engine, sql, Math.max(1, Math.min(count / 5, 2000)));
					}
					Measured m = startAll(engine, sql, count);
					this.report.record(scenario,
							sql ? ComparisonReport.DURABLE_SQL_START : ComparisonReport.DURABLE_CLIENT_START, round,
							m.loop(), m.delta(),
							String.format("starts %.0f/s; created_at to closed_at p50 %s ms, p99 %s ms",
									count / (m.clientNanos() / 1e9),
									LatencyStats.millis(LatencyStats.of(m.runLatencies()).p50()),
									LatencyStats.millis(LatencyStats.of(m.runLatencies()).p99())));
				}
			}
		}
		this.report.ratio(scenario, "**ratio SQL/client starts**", ComparisonReport.DURABLE_SQL_START,
				ComparisonReport.DURABLE_CLIENT_START);
	}

	private Measured startAll(DurableContender engine, boolean sql, int count) {
		String prefix = "echo-" + ComparisonScenarios.shortId();
		List<String> ids = ids(prefix, count);
		JdbcTemplate jdbc = new JdbcTemplate(engine.pool());
		String call = "SELECT " + SCHEMA + ".start_workflow(?, ?, ?::jsonb, '{}'::jsonb)::text";
		IntConsumer start = sql
				? (i) -> jdbc.queryForObject(call, String.class, "bench-echo", ids.get(i), "\"in-" + i + "\"")
				: (i) -> engine.startEcho(ids.get(i), "in-" + i);
		PgCounters.Snapshot before = this.counters.read(engine);
		Instant begin = Instant.now();
		ClientLoops.Loop calls = ClientLoops.loop(CLIENTS, count, start);
		awaitClosed(jdbc, prefix, count);
		PgCounters.Snapshot delta = this.counters.read(engine).minus(before);
		List<long[]> runs = jdbc.query(
				"SELECT created_at, closed_at FROM " + SCHEMA + ".workflow_run WHERE namespace = 'default'"
						+ " AND workflow_id >= ? AND workflow_id < ?",
				(rs, n) -> new long[] { nanos(rs.getObject(1, OffsetDateTime.class).toInstant()),
						nanos(rs.getObject(2, OffsetDateTime.class).toInstant()) },
				low(prefix), high(prefix));
		check(runs.size(), count, prefix);
		long[] runLatencies = new long[runs.size()];
		long last = 0;
		for (int i = 0; i < runLatencies.length; i++) {
			runLatencies[i] = Math.max(0, runs.get(i)[1] - runs.get(i)[0]);
			last = Math.max(last, runs.get(i)[1]);
		}
		long elapsed = Math.max(1, last - nanos(begin));
		return new Measured(new ClientLoops.Loop(count, elapsed, calls.latencies()), delta, calls.nanos(),
				runLatencies);
	}

	/**
	 * The runs of the prefix as a measured loop: each one's latency is its
	 * {@code closed_at} after {@code start}, the loop's time the last one's.
	 */
	private ClientLoops.Loop closedSince(JdbcTemplate jdbc, String prefix, int count, Instant start) {
		List<Instant> closed = jdbc.query(
				"SELECT closed_at FROM " + SCHEMA + ".workflow_run WHERE namespace = 'default'"
						+ " AND workflow_id >= ? AND workflow_id < ?",
				(rs, n) -> rs.getObject(1, OffsetDateTime.class).toInstant(), low(prefix), high(prefix));
		check(closed.size(), count, prefix);
		long[] latencies = new long[closed.size()];
		long last = 1;
		for (int i = 0; i < latencies.length; i++) {
			latencies[i] = Math.max(0, nanos(closed.get(i)) - nanos(start));
			last = Math.max(last, latencies[i]);
		}
		return new ClientLoops.Loop(count, last, latencies);
	}

	/** Polls until the query counts {@code count} rows. */
	private static void awaitCount(JdbcTemplate jdbc, int count, String what, String sql, Object... args) {
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		long seen;
		while ((seen = jdbc.queryForObject(sql, Long.class, args)) < count) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("only " + seen + " of " + count + " " + what);
			}
			ClientLoops.sleep(POLL);
		}
	}

	/** Polls until no run of the prefix is open. */
	private static void awaitClosed(JdbcTemplate jdbc, String prefix, int count) {
		String open = "SELECT count(*) FROM " + SCHEMA + ".workflow_run WHERE namespace = 'default'"
				+ " AND workflow_id >= ? AND workflow_id < ? AND status = 'RUNNING'";
		long deadline = System.nanoTime() + TIMEOUT.toNanos();
		long seen;
		while ((seen = jdbc.queryForObject(open, Long.class, low(prefix), high(prefix))) > 0) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(seen + " of " + count + " runs " + prefix + "-* still open");
			}
			ClientLoops.sleep(POLL);
		}
	}

	private static void check(int found, int count, String prefix) {
		if (found != count) {
			throw new IllegalStateException(found + " runs " + prefix + "-* closed, expected " + count);
		}
	}

	private static List<String> ids(String prefix, int count) {
		List<String> ids = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			ids.add(prefix + "-" + i);
		}
		return ids;
	}

	/** The workflow ids of a prefix are those in [prefix + "-", prefix + "."). */
	private static String low(String prefix) {
		return prefix + "-";
	}

	private static String high(String prefix) {
		return prefix + ".";
	}

	private static long nanos(Instant instant) {
		return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
	}

	/**
	 * One measured side.
	 *
	 * @param loop the runs, timed by their {@code closed_at}
	 * @param delta the server's counters and the CPU over the measured time
	 * @param clientNanos the client's part: the publish, the signals sent, or the starts
	 * @param runLatencies each run's created_at to closed_at (the starts only)
	 */
	private record Measured(ClientLoops.Loop loop, PgCounters.Snapshot delta, long clientNanos, long[] runLatencies) {

		Measured(ClientLoops.Loop loop, PgCounters.Snapshot delta, long clientNanos) {
			this(loop, delta, clientNanos, new long[0]);
		}

	}

}
