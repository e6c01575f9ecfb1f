package dev.durable.benchmarks.compare;

import java.io.PrintStream;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.benchmarks.EmbeddedDatabase;
import dev.durable.benchmarks.Machine;

/**
 * Durable and DBOS Transact Java side by side, on one embedded PostgreSQL (one database
 * each on the same server, so each engine's transaction counter is its own), alternating
 * engine by engine within each scenario: Durable, DBOS, Durable, DBOS.
 * <p>
 * For each scenario and engine the report gives workflows per second, p50 and p99 latency
 * (from the client's start to its result, or from the signal to the result), PostgreSQL
 * transactions per workflow ({@code pg_stat_database.xact_commit} of the engine's
 * database) and WAL flushes per workflow ({@code pg_stat_wal.wal_sync}, server-wide), and
 * the ratio Durable / DBOS.
 */
public final class ComparisonBenchmark {

	/**
	 * The most clients Flowable serves (the steps scenarios at 16; it is not measured at
	 * 64).
	 */
	private static final int FLOWABLE_MAX_CLIENTS = 16;

	/** Every scenario, in the order they run. */
	public static final List<String> SCENARIOS = List.of("steps3", "steps20", "queue8", "taskqueue3", "signal",
			"parked", "replay", "ceiling", "topic", "sqlstart");

	/**
	 * The scenarios of a run without {@code --scenarios}: all but {@code queue8}, whose
	 * DBOS side (about 8 workflows/s through DBOS's polled queue) takes four and a half
	 * minutes alone and would take the default run past 10 minutes, and the Durable-only
	 * {@code topic} and {@code sqlstart}, which set Durable against itself and run when
	 * named.
	 */
	public static final List<String> DEFAULT_SCENARIOS = SCENARIOS.stream()
		.filter((s) -> !List.of("queue8", "topic", "sqlstart").contains(s))
		.toList();

	private final Options options;

	private final PrintStream out;

	private final ComparisonReport report;

	private final List<String> problems = new ArrayList<>();

	private PgCounters counters;

	/**
	 * The engines started once for the whole run, when the options do not isolate them.
	 */
	private final List<Contender> keptOpen = new ArrayList<>();

	public ComparisonBenchmark(Options options, PrintStream out) {
		this.options = options;
		this.out = out;
		this.report = new ComparisonReport(out);
	}

	/**
	 * Runs the selected scenarios and prints the report; false when a scenario failed.
	 */
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
		try (EmbeddedDatabase database = EmbeddedDatabase.start(this.options.synchronousCommit(), this.options.fsync(),
				this.options.statements())) {
			this.out.printf("database: embedded %s, same machine, one database per engine%n", database.describe());
			database.createDatabase("bench_durable");
			database.createDatabase("bench_dbos");
			database.createDatabase("bench_ceiling");
			database.createDatabase("bench_flowable");
			if (this.options.statements()) {
				for (String db : List.of("bench_durable", "bench_dbos", "bench_flowable")) {
					try (HikariDataSource ds = database.pool(db, "statements", 1)) {
						new JdbcTemplate(ds).execute("CREATE EXTENSION pg_stat_statements");
					}
				}
			}
			this.counters = new PgCounters(database.pool("postgres", "counters", 1), this.options.settle());
			try (HikariDataSource idle = database.pool("bench_ceiling", "calibration", this.options.pool())) {
				this.out.printf(
						"a new connection commits %.2f transaction(s) as it starts (subtracted from the counts)%n",
						this.counters.calibrate(idle, "bench_ceiling"));
			}
			try {
				Supplier<DurableContender> durable = lifecycle(() -> new DurableContender(
						database.pool("bench_durable", "durable", this.options.pool()), "bench_durable"));
				Supplier<Contender> dbos = lifecycle(
						() -> new DbosContender(database.pool("bench_dbos", "dbos", this.options.pool()),
								database.jdbcUrl("bench_dbos"), "bench_dbos"));
				List<Supplier<? extends Contender>> engines = List.of(durable, dbos);
				// the second peer runs the steps scenarios only, in both of its modes
				// (see FlowableContender)
				// they are measured in the first round only (--extra-rounds) and Flowable
				// not at 64 clients,
				// where its async mode runs no faster than at 16 (about 80/s) and the
				// default run would
				// pass 10 minutes
				Supplier<Contender> localSteps = lifecycle(() -> DurableContender.withLocalSteps(
						database.pool("bench_durable", "durable-local", this.options.pool()), "bench_durable"));
				List<Supplier<? extends Contender>> stepExtras = List.of(localSteps,
						lifecycle(
								() -> new FlowableContender(
										database.pool("bench_flowable", "flowable-async",
												FlowableContender.maxPoolSize(this.options.pool(),
														FLOWABLE_MAX_CLIENTS),
												this.options.pool()),
										"bench_flowable", true, this.options.pool())),
						lifecycle(() -> new FlowableContender(
								database.pool("bench_flowable", "flowable-tx", this.options.pool()), "bench_flowable",
								false, this.options.pool())));
				// the engines of the queue and task-queue scenarios are built for them
				// alone, so that
				// the queue's dispatching and the worker node never run during the other
				// scenarios
				List<Supplier<? extends Contender>> queueEngines = List.of(
						lifecycle(() -> DurableContender.withQueue(
								database.pool("bench_durable", "durable-queue", this.options.pool()), "bench_durable")),
						lifecycle(() -> DbosContender.withQueue(
								database.pool("bench_dbos", "dbos-queue", this.options.pool()),
								database.jdbcUrl("bench_dbos"), "bench_dbos")));
				Supplier<DurableContender> durableTaskQueue = lifecycle(() -> DurableContender.withTaskQueueWorker(
						database.pool("bench_durable", "durable-tq", this.options.pool()),
						database.pool("bench_durable", "durable-tq-worker", this.options.pool()), "bench_durable"));
				idle(engines);
				warmJvm(engines);
				ComparisonScenarios scenarios = new ComparisonScenarios(this.options, this.counters, this.report);
				for (String scenario : this.options.scenarios()) {
					long start = System.nanoTime();
					try {
						switch (scenario) {
							case "steps3" -> {
								scenarios.steps(engines, stepExtras, 3, 1);
								scenarios.steps(engines, stepExtras, 3, 16);
								scenarios.steps(engines, List.of(localSteps), 3, 64);
							}
							case "steps20" -> {
								scenarios.steps(engines, stepExtras, 20, 1);
								scenarios.steps(engines, stepExtras, 20, 16);
							}
							case "queue8" -> {
								scenarios.queued(queueEngines, 16);
								scenarios.queued(queueEngines, 64);
							}
							case "taskqueue3" -> {
								scenarios.taskQueue(durableTaskQueue, 1);
								scenarios.taskQueue(durableTaskQueue, 16);
							}
							case "signal" -> scenarios.signal(engines);
							case "parked" -> new ParkedScenario(this.counters, this.report, this.options.statements())
								.run(engines, this.options.parked());
							case "replay" -> scenarios.replay(durable);
							case "ceiling" -> scenarios.ceiling(database);
							case "topic" -> new EventsAndSqlScenarios(this.options, this.counters, this.report)
								.wake(durable, this.options.woken());
							case "sqlstart" -> new EventsAndSqlScenarios(this.options, this.counters, this.report)
								.starts(durable, this.options.starts());
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
		this.out.printf("load average at end: %s (other processes on the machine skew the numbers)%n",
				Machine.loadAverage());
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
	 * Isolated (the default): each measurement starts its engine and stops it after, so
	 * that the other engine's background work (polls, heartbeats) adds nothing to its
	 * counters. Otherwise each engine is started at its first use and kept for the rest
	 * of the run (an engine that no selected scenario uses never starts).
	 */
	private <T extends Contender> Supplier<T> lifecycle(Supplier<T> factory) {
		if (this.options.isolate()) {
			return factory;
		}
		List<T> started = new ArrayList<>(1);
		return () -> {
			if (started.isEmpty()) {
				T engine = factory.get();
				engine.keepOpen();
				this.keptOpen.add(engine);
				started.add(engine);
			}
			return started.get(0);
		};
	}

	/**
	 * The scenario lines of the report, for the smoke test: scenario, then engine, then
	 * its tally.
	 */
	Map<String, Map<String, Tally>> tallies() {
		return this.report.tallies();
	}

	List<String> problems() {
		return this.problems;
	}

	/**
	 * The engines' own background work (polls, heartbeats) while nothing runs, for the
	 * reader.
	 */
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
	 * Once at the start, unmeasured: each engine runs 3-step workflows for the JVM
	 * warm-up time, so that the first measurement does not pay for class loading and the
	 * JIT.
	 */
	private void warmJvm(List<Supplier<? extends Contender>> engines) {
		if (this.options.jvmWarmup().isZero()) {
			return;
		}
		for (Supplier<? extends Contender> factory : engines) {
			try (Contender engine = factory.get()) {
				String prefix = "jvm-warm-" + ComparisonScenarios.shortId();
				// half at one client (commits one at a time), half at 16 (commits in
				// batches)
				Duration half = this.options.jvmWarmup().dividedBy(2);
				ClientLoops.Loop alone = ClientLoops.loopFor(1, half, (i) -> engine.runSteps(prefix + "a" + i, 3));
				ClientLoops.Loop many = ClientLoops.loopFor(16, half, (i) -> engine.runSteps(prefix + "b" + i, 3));
				this.out.printf("JVM warm-up %s: %d workflows%n", engine.name(), alone.count() + many.count());
			}
		}
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
	 *
	 * @param scenarios which scenarios, in order: steps3, steps20, queue8, taskqueue3,
	 * signal, parked, replay, ceiling, topic, sqlstart
	 * @param rounds rounds of each alternating scenario (Durable, DBOS, Durable, DBOS,
	 * ...)
	 * @param extraRounds of those, the rounds that also measure the steps scenarios'
	 * other lines (Durable local activities, Flowable in its two modes)
	 * @param jvmWarmup each engine's unmeasured run before the first measurement (half at
	 * one client, half at 16), for class loading and the JIT
	 * @param warmup warm-up time before each measurement (also sizes it)
	 * @param measure the time each measurement aims at
	 * @param signals signal scenario: workflows signalled per round
	 * @param parked parked scenario: workflows parked at once
	 * @param replayEvents replay scenario: events in the replayed history
	 * @param replays replay scenario: replays measured
	 * @param woken topic scenario: runs parked, then woken by one event (and by a signal
	 * each)
	 * @param starts sqlstart scenario: workflows started from SQL (and from the client)
	 * @param pool connections in each engine's pool
	 * @param settle wait before reading the server's counters, so idle connections report
	 * theirs
	 * @param synchronousCommit PostgreSQL {@code synchronous_commit}
	 * @param fsync PostgreSQL {@code fsync}
	 * @param isolate start and stop each engine around each of its measurements
	 * (otherwise both stay up for the whole run)
	 * @param statements load {@code pg_stat_statements} and print, for the first round of
	 * each steps measurement, the statements each engine ran per workflow
	 */
	public record Options(List<String> scenarios, int rounds, int extraRounds, Duration jvmWarmup, Duration warmup,
			Duration measure, int signals, int parked, int replayEvents, int replays, int woken, int starts, int pool,
			Duration settle, String synchronousCommit, String fsync, boolean isolate, boolean statements) {

		public static Options defaults() {
			int cores = Runtime.getRuntime().availableProcessors();
			return new Options(DEFAULT_SCENARIOS, 2, 1, Duration.ofSeconds(10), Duration.ofSeconds(2),
					Duration.ofSeconds(4), 200, 10_000, 10_000, 10, 10_000, 10_000, 2 * cores + 4,
					Duration.ofMillis(500), "on", "on", true, false);
		}

	}

}
