package dev.durable.benchmarks.compare;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.benchmarks.EmbeddedDatabase;
import dev.durable.benchmarks.Machine;

/**
 * Durable and DBOS Transact Java side by side, on one embedded PostgreSQL (one database each on
 * the same server, so each engine's transaction counter is its own), alternating engine by
 * engine within each scenario: Durable, DBOS, Durable, DBOS.
 * <p>
 * For each scenario and engine the report gives workflows per second, p50 and p99 latency (from
 * the client's start to its result, or from the signal to the result), PostgreSQL transactions
 * per workflow ({@code pg_stat_database.xact_commit} of the engine's database) and WAL flushes per
 * workflow ({@code pg_stat_wal.wal_sync}, server-wide), and the ratio Durable / DBOS.
 */
public final class ComparisonBenchmark {

	public static final List<String> SCENARIOS = List.of("steps3", "steps20", "signal", "parked", "replay", "ceiling");

	private final Options options;

	private final PrintStream out;

	private final ComparisonReport report;

	private final List<String> problems = new ArrayList<>();

	private PgCounters counters;

	/** The engines started once for the whole run, when the options do not isolate them. */
	private final List<Contender> keptOpen = new ArrayList<>();

	public ComparisonBenchmark(Options options, PrintStream out) {
		this.options = options;
		this.out = out;
		this.report = new ComparisonReport(out);
	}

	/** Runs the selected scenarios and prints the report; false when a scenario failed. */
	public boolean run() {
		long begin = System.nanoTime();
		int cores = Runtime.getRuntime().availableProcessors();
		this.out.printf("compare: %s%n", ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME));
		this.out.printf("machine: %d cores (%s), %s %s, Java %s (%s), max heap %d MB%n", cores, Machine.cpuModel(),
				System.getProperty("os.name"), System.getProperty("os.arch"), System.getProperty("java.version"),
				System.getProperty("java.vm.name"), Runtime.getRuntime().maxMemory() >> 20);
		this.out.printf("engines: Durable (default settings), DBOS Transact %s (application version pinned), "
				+ "pool of %d connections each%n", dbosVersion(), this.options.pool());
		this.out.printf("load average at start: %s%n", Machine.loadAverage());
		try (EmbeddedDatabase database = EmbeddedDatabase.start(this.options.synchronousCommit(),
				this.options.fsync(), this.options.statements())) {
			this.out.printf("database: embedded %s, same machine, one database per engine%n", database.describe());
			database.createDatabase("bench_durable");
			database.createDatabase("bench_dbos");
			database.createDatabase("bench_ceiling");
			if (this.options.statements()) {
				for (String db : List.of("bench_durable", "bench_dbos")) {
					try (HikariDataSource ds = database.pool(db, "statements", 1)) {
						new JdbcTemplate(ds).execute("CREATE EXTENSION pg_stat_statements");
					}
				}
			}
			this.counters = new PgCounters(database.pool("postgres", "counters", 1), this.options.settle());
			try (HikariDataSource idle = database.pool("bench_ceiling", "calibration", this.options.pool())) {
				this.out.printf("a new connection commits %.2f transaction(s) as it starts (subtracted from the counts)%n",
						this.counters.calibrate(idle, "bench_ceiling"));
			}
			try {
				Supplier<DurableContender> durable = lifecycle(() -> new DurableContender(
						database.pool("bench_durable", "durable", this.options.pool()), "bench_durable"));
				Supplier<Contender> dbos = lifecycle(() -> new DbosContender(
						database.pool("bench_dbos", "dbos", this.options.pool()), database.jdbcUrl("bench_dbos"),
						"bench_dbos"));
				List<Supplier<? extends Contender>> engines = List.of(durable, dbos);
				idle(engines);
				warmJvm(engines);
				for (String scenario : this.options.scenarios()) {
					long start = System.nanoTime();
					try {
						switch (scenario) {
							case "steps3" -> {
								steps(engines, 3, 1);
								steps(engines, 3, 16);
								steps(engines, 3, 64);
							}
							case "steps20" -> {
								steps(engines, 20, 1);
								steps(engines, 20, 16);
							}
							case "signal" -> signal(engines);
							case "parked" -> parked(engines);
							case "replay" -> replay(durable);
							case "ceiling" -> ceiling(database);
							default -> throw new IllegalArgumentException("Unknown scenario '" + scenario + "'");
						}
					}
					catch (RuntimeException ex) {
						this.problems.add(scenario + ": " + ex);
						ex.printStackTrace(this.out);
					}
					this.out.printf("  %s done in %.1f s%n", scenario, (System.nanoTime() - start) / 1e9);
				}
			}
			finally {
				this.keptOpen.forEach(Contender::closeNow);
				if (this.counters != null) {
					this.counters.close();
				}
			}
		}
		this.out.printf("load average at end: %s (other processes on the machine skew the numbers)%n", Machine.loadAverage());
		this.out.println();
		this.report.printTable();
		this.out.printf("%ntotal time %.1f s%n", (System.nanoTime() - begin) / 1e9);
		if (this.problems.isEmpty()) {
			return true;
		}
		this.out.println();
		this.out.println("PROBLEMS:");
		this.problems.forEach((problem) -> this.out.println("  - " + problem));
		return false;
	}

	/**
	 * Isolated (the default): each measurement starts its engine and stops it after, so that the
	 * other engine's background work (polls, heartbeats) adds nothing to its counters. Otherwise
	 * each engine is started once and kept for the whole run.
	 */
	private <T extends Contender> Supplier<T> lifecycle(Supplier<T> factory) {
		if (this.options.isolate()) {
			return factory;
		}
		T engine = factory.get();
		engine.keepOpen();
		this.keptOpen.add(engine);
		return () -> engine;
	}

	/** The scenario lines of the report, for the smoke test: scenario, then engine, then its tally. */
	Map<String, Map<String, Tally>> tallies() {
		return this.report.tallies();
	}

	List<String> problems() {
		return this.problems;
	}

	/** The engines' own background work (polls, heartbeats) while nothing runs, for the reader. */
	private void idle(List<Supplier<? extends Contender>> engines) {
		Duration window = this.options.measure();
		for (Supplier<? extends Contender> factory : engines) {
			try (Contender engine = factory.get()) {
				idle(engine, window);
			}
		}
	}

	private void idle(Contender engine, Duration window) {
		PgCounters.Snapshot before = this.counters.read(engine.database(), engine.pool());
		ClientLoops.sleep(window);
		PgCounters.Snapshot delta = this.counters.read(engine.database(), engine.pool()).minus(before);
		double seconds = window.toNanos() / 1e9 + this.options.settle().toNanos() / 1e9;
		this.out.printf("idle %s%s: %.1f transactions/s in its database, %.1f WAL flushes/s on the server%n",
				engine.name(), this.options.isolate() ? " (alone)" : "", delta.xactCommit() / seconds,
				delta.walSync() / seconds);
	}

	/**
	 * Once at the start, unmeasured: each engine runs 3-step workflows for the JVM warm-up time,
	 * so that the first measurement does not pay for class loading and the JIT.
	 */
	private void warmJvm(List<Supplier<? extends Contender>> engines) {
		if (this.options.jvmWarmup().isZero()) {
			return;
		}
		for (Supplier<? extends Contender> factory : engines) {
			try (Contender engine = factory.get()) {
				String prefix = "jvm-warm-" + shortId();
				// half at one client (commits one at a time), half at 16 (commits in batches)
				Duration half = this.options.jvmWarmup().dividedBy(2);
				ClientLoops.Loop alone = ClientLoops.loopFor(1, half, (i) -> engine.runSteps(prefix + "a" + i, 3));
				ClientLoops.Loop many = ClientLoops.loopFor(16, half, (i) -> engine.runSteps(prefix + "b" + i, 3));
				this.out.printf("JVM warm-up %s: %d workflows%n", engine.name(), alone.count() + many.count());
			}
		}
	}

	/** Scenarios 1 and 2: workflows of {@code steps} no-op steps, started by {@code concurrency} clients. */
	private void steps(List<Supplier<? extends Contender>> engines, int steps, int concurrency) {
		String scenario = steps + " steps, concurrency " + concurrency;
		for (int round = 1; round <= this.options.rounds(); round++) {
			for (Supplier<? extends Contender> factory : engines) {
				try (Contender engine = factory.get()) {
					String prefix = "s" + steps + "-c" + concurrency + "-" + shortId();
					// warm-up, which also tells how many workflows fill the measured time
					int count = warmUp(concurrency, (i) -> engine.runSteps(prefix + "-w" + i, steps));
					PgCounters.Snapshot before = this.counters.read(engine.database(), engine.pool());
					boolean breakdown = this.options.statements() && round == 1;
					if (breakdown) {
						new JdbcTemplate(engine.pool()).execute("SELECT pg_stat_statements_reset()");
					}
					ClientLoops.Loop measured = ClientLoops.loop(concurrency, count, (i) -> engine.runSteps(prefix + "-m" + i, steps));
					PgCounters.Snapshot delta = this.counters.read(engine.database(), engine.pool()).minus(before);
					this.report.record(scenario, engine.name(), round, measured, delta, null);
					if (breakdown) {
						this.report.printStatements(engine, measured.count());
					}
				}
			}
		}
	}

	/**
	 * Scenario 3: workflows parked on a signal; the client sends the signal and waits for the
	 * result, one workflow at a time.
	 */
	private void signal(List<Supplier<? extends Contender>> engines) {
		String scenario = "signal to completion, concurrency 1";
		int count = this.options.signals();
		for (int round = 1; round <= this.options.rounds(); round++) {
			for (Supplier<? extends Contender> factory : engines) {
				try (Contender engine = factory.get()) {
					String prefix = "sig-" + shortId();
					int warm = Math.max(1, count / 5);
					List<String> warmIds = park(engine, prefix + "-w", warm, 1);
					for (String id : warmIds) {
						engine.signal(id);
						engine.awaitResult(id);
					}
					List<String> ids = park(engine, prefix + "-m", count, 1);
					PgCounters.Snapshot before = this.counters.read(engine.database(), engine.pool());
					ClientLoops.Loop measured = ClientLoops.loop(1, count, (i) -> {
						engine.signal(ids.get(i));
						engine.awaitResult(ids.get(i));
					});
					PgCounters.Snapshot delta = this.counters.read(engine.database(), engine.pool()).minus(before);
					this.report.record(scenario, engine.name(), round, measured, delta, null);
				}
			}
		}
	}

	/**
	 * Scenario 4: many workflows parked on a signal at once (heap and database bytes per parked
	 * run), then all woken: 16 threads send the signals while one client thread waits for the
	 * results in send order. Once per engine (it is the longest scenario).
	 */
	private void parked(List<Supplier<? extends Contender>> engines) {
		int count = this.options.parked();
		int senders = 16;
		String parkScenario = String.format("park %,d (start, concurrency %d)", count, senders);
		String wakeScenario = String.format("wake %,d (signals from %d threads)", count, senders);
		for (Supplier<? extends Contender> factory : engines) {
			try (Contender engine = factory.get()) {
				parked(engine, count, senders, parkScenario, wakeScenario);
			}
		}
	}

	private void parked(Contender engine, int count, int senders, String parkScenario, String wakeScenario) {
		String prefix = "park-" + shortId();
		List<String> ids = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			ids.add(prefix + "-" + i);
		}
		ParkProbe.reset();
		long heapBefore = ClientLoops.usedHeapAfterGc();
		int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		PgCounters.Snapshot before = this.counters.read(engine.database(), engine.pool());
		ClientLoops.Loop started = ClientLoops.loop(senders, count, (i) -> engine.startWaiting(ids.get(i)));
		if (!ParkProbe.await(count, 10, TimeUnit.MINUTES)) {
			throw new IllegalStateException(engine.name() + ": only " + ParkProbe.count() + " of " + count
					+ " workflows reached their wait");
		}
		PgCounters.Snapshot parked = this.counters.read(engine.database(), engine.pool());
		long heapAfter = ClientLoops.usedHeapAfterGc();
		int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
		PgCounters.Snapshot parkDelta = parked.minus(before);
		String notes = String.format("heap %,d B/run, database %,d B/run, platform threads %+d",
				(heapAfter - heapBefore) / count, parkDelta.databaseBytes() / count, threadsAfter - threadsBefore);
		this.report.record(parkScenario, engine.name(), 1, started, parkDelta, notes);
		ClientLoops.Loop woken = wake(engine, ids, senders);
		PgCounters.Snapshot wakeDelta = this.counters.read(engine.database(), engine.pool()).minus(parked);
		this.report.record(wakeScenario, engine.name(), 1, woken, wakeDelta,
				"latency: signal sent to result seen by one client thread waiting in send order");
	}

	private ClientLoops.Loop wake(Contender engine, List<String> ids, int senders) {
		int count = ids.size();
		long[] sentAt = new long[count];
		long[] latencies = new long[count];
		AtomicReference<Throwable> failure = new AtomicReference<>();
		long start = System.nanoTime();
		Thread waiter = Thread.ofPlatform().name("wake-waiter").start(() -> {
			try {
				for (int i = 0; i < count; i++) {
					engine.awaitResult(ids.get(i));
					long now = System.nanoTime();
					while (sentAt[i] == 0 && failure.get() == null) {
						Thread.onSpinWait();
					}
					latencies[i] = now - sentAt[i];
				}
			}
			catch (Throwable ex) {
				failure.compareAndSet(null, ex);
			}
		});
		AtomicInteger next = new AtomicInteger();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < senders; t++) {
			threads.add(Thread.ofPlatform().name("wake-sender-" + t).start(() -> {
				int i;
				try {
					while (failure.get() == null && (i = next.getAndIncrement()) < count) {
						long before = System.nanoTime();
						engine.signal(ids.get(i));
						sentAt[i] = before;
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			}));
		}
		threads.forEach(ClientLoops::join);
		ClientLoops.join(waiter);
		if (failure.get() != null) {
			throw new IllegalStateException(engine.name() + ": " + failure.get(), failure.get());
		}
		return new ClientLoops.Loop(count, System.nanoTime() - start, latencies);
	}

	/** Scenario 5 (Durable only): replay of one run's history of about the given number of events. */
	private void replay(Supplier<DurableContender> factory) {
		try (DurableContender durable = factory.get()) {
			replay(durable);
		}
	}

	private void replay(DurableContender durable) {
		int width = 50;
		int batches = Math.max(1, this.options.replayEvents() / (2 * width));
		UUID runId = durable.buildLongHistory("replay-" + shortId(), batches, width);
		int events = durable.replay(runId);
		for (int i = 0; i < 3; i++) {
			durable.replay(runId);
		}
		PgCounters.Snapshot before = this.counters.read(durable.database(), durable.pool());
		ClientLoops.Loop measured = ClientLoops.loop(1, this.options.replays(), (i) -> durable.replay(runId));
		PgCounters.Snapshot delta = this.counters.read(durable.database(), durable.pool()).minus(before);
		double eventsPerSecond = events * (double) measured.count() / (measured.nanos() / 1e9);
		this.report.record(String.format("replay of a %,d-event history", events), ComparisonReport.DURABLE, 1, measured, delta,
				String.format("%,.0f events/s; one row = one replay", eventsPerSecond));
	}

	/**
	 * The database's own ceiling for comparison: one single-row INSERT per transaction over JDBC
	 * (the zonky binaries ship no pgbench), at concurrency 1 and 16, on a database of its own.
	 */
	private void ceiling(EmbeddedDatabase database) {
		for (int concurrency : new int[] { 1, 16 }) {
			try (HikariDataSource pool = database.pool("bench_ceiling", "ceiling", concurrency)) {
				JdbcTemplate jdbc = new JdbcTemplate(pool);
				jdbc.execute("CREATE TABLE IF NOT EXISTS ceiling (id bigserial PRIMARY KEY, payload text)");
				IntConsumer insert = (i) -> jdbc.update("INSERT INTO ceiling (payload) VALUES (?)", "row " + i);
				int count = warmUp(concurrency, insert);
				PgCounters.Snapshot before = this.counters.read("bench_ceiling", pool);
				ClientLoops.Loop measured = ClientLoops.loop(concurrency, count, insert);
				PgCounters.Snapshot delta = this.counters.read("bench_ceiling", pool).minus(before);
				this.report.record("single-row insert per transaction (JDBC), concurrency " + concurrency, "PostgreSQL", 1,
						measured, delta, "the ceiling: one row = one transaction");
			}
		}
	}

	/**
	 * Runs the operation for the warm-up time and returns how many operations fill the measured
	 * time at the rate seen (at least 10 per client). No warm-up time: one per client.
	 */
	private int warmUp(int concurrency, IntConsumer op) {
		if (this.options.warmup().isZero()) {
			return concurrency;
		}
		ClientLoops.Loop warm = ClientLoops.loopFor(concurrency, this.options.warmup(), op);
		double rate = warm.count() / (warm.nanos() / 1e9);
		return Math.max(10 * concurrency, (int) (rate * this.options.measure().toNanos() / 1e9));
	}

	/** Starts {@code count} waiting workflows and waits until all reached their wait. */
	private List<String> park(Contender engine, String prefix, int count, int concurrency) {
		List<String> ids = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			ids.add(prefix + "-" + i);
		}
		ParkProbe.reset();
		ClientLoops.loop(concurrency, count, (i) -> engine.startWaiting(ids.get(i)));
		if (!ParkProbe.await(count, 2, TimeUnit.MINUTES)) {
			throw new IllegalStateException(engine.name() + ": only " + ParkProbe.count() + " of " + count
					+ " workflows reached their wait");
		}
		return ids;
	}

	private static String shortId() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

	private static String dbosVersion() {
		try {
			return dev.dbos.transact.DBOS.version();
		}
		catch (RuntimeException | LinkageError ex) {
			return "(unknown version)";
		}
	}

	/**
	 * What to run.
	 * @param scenarios which scenarios, in order: steps3, steps20, signal, parked, replay, ceiling
	 * @param rounds rounds of each alternating scenario (Durable, DBOS, Durable, DBOS, ...)
	 * @param jvmWarmup each engine's unmeasured run before the first measurement (half at one
	 * client, half at 16), for class loading and the JIT
	 * @param warmup warm-up time before each measurement (also sizes it)
	 * @param measure the time each measurement aims at
	 * @param signals signal scenario: workflows signalled per round
	 * @param parked parked scenario: workflows parked at once
	 * @param replayEvents replay scenario: events in the replayed history
	 * @param replays replay scenario: replays measured
	 * @param pool connections in each engine's pool
	 * @param settle wait before reading the server's counters, so idle connections report theirs
	 * @param synchronousCommit PostgreSQL {@code synchronous_commit}
	 * @param fsync PostgreSQL {@code fsync}
	 * @param isolate start and stop each engine around each of its measurements (otherwise both
	 * stay up for the whole run)
	 * @param statements load {@code pg_stat_statements} and print, for the first round of each
	 * steps measurement, the statements each engine ran per workflow
	 */
	public record Options(List<String> scenarios, int rounds, Duration jvmWarmup, Duration warmup, Duration measure,
			int signals, int parked, int replayEvents, int replays, int pool, Duration settle,
			String synchronousCommit, String fsync, boolean isolate, boolean statements) {

		public static Options defaults() {
			int cores = Runtime.getRuntime().availableProcessors();
			return new Options(SCENARIOS, 2, Duration.ofSeconds(10), Duration.ofSeconds(2), Duration.ofSeconds(4), 200,
					10_000, 10_000, 10, 2 * cores + 4, Duration.ofMillis(500), "on", "on", true, false);
		}

	}

}
