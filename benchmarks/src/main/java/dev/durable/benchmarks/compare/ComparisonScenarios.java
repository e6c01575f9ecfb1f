package dev.durable.benchmarks.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.benchmarks.EmbeddedDatabase;

/**
 * The measured scenarios of the comparison but the parked one ({@link ParkedScenario}):
 * each warms up, reads the counters, runs its loop and records the row of the report.
 */
final class ComparisonScenarios {

	private final ComparisonBenchmark.Options options;

	private final PgCounters counters;

	private final ComparisonReport report;

	ComparisonScenarios(ComparisonBenchmark.Options options, PgCounters counters, ComparisonReport report) {
		this.options = options;
		this.counters = counters;
		this.report = report;
	}

	/**
	 * Scenarios 1 and 2: workflows of {@code steps} no-op steps, started by
	 * {@code concurrency} clients. The {@code pair} (Durable, DBOS) alternates for every
	 * round; the {@code extras} (local activities, Flowable) join the first
	 * {@code extraRounds} rounds only.
	 */
	void steps(List<Supplier<? extends Contender>> pair, List<Supplier<? extends Contender>> extras, int steps,
			int concurrency) {
		measure(steps + " steps, concurrency " + concurrency, "s" + steps + "-c" + concurrency, pair, extras,
				concurrency, (engine, id) -> engine.runSteps(id, steps));
	}

	/**
	 * The 3-step workflow started through a flow-control queue of concurrency 8 by
	 * {@code concurrency} clients: at most 8 run at once, the others wait in the queue.
	 */
	void queued(List<Supplier<? extends Contender>> engines, int concurrency) {
		measure(queuedScenario(concurrency), "q8-c" + concurrency, engines, concurrency,
				(engine, id) -> engine.runQueuedSteps(id, 3));
	}

	static String queuedScenario(int concurrency) {
		return "3 steps through a queue of concurrency " + Contender.QUEUE_CONCURRENCY + ", concurrency " + concurrency;
	}

	/**
	 * Durable only: the 3-step workflow whose steps are activities on a task queue served
	 * by a second node. DBOS has no remote worker pool, so the report sets this line
	 * against the inline 3-step lines of the same run, DBOS's and Durable's.
	 */
	void taskQueue(Supplier<DurableContender> factory, int concurrency) {
		String scenario = taskQueueScenario(concurrency);
		measure(scenario, "tq3-c" + concurrency, List.of(factory), concurrency,
				(engine, id) -> engine.runTaskQueueSteps(id, 3));
		this.report.compareWith(scenario, "3 steps, concurrency " + concurrency);
	}

	static String taskQueueScenario(int concurrency) {
		return "3 steps on a task queue (second node), concurrency " + concurrency;
	}

	/**
	 * One alternating scenario: for each round and engine, starts the engine, warms it up
	 * (which also tells how many workflows fill the measured time), measures and records
	 * the line.
	 */
	private <C extends Contender> void measure(String scenario, String idPrefix, List<Supplier<? extends C>> engines,
			int concurrency, BiConsumer<C, String> run) {
		measure(scenario, idPrefix, engines, List.of(), concurrency, run);
	}

	private <C extends Contender> void measure(String scenario, String idPrefix, List<Supplier<? extends C>> engines,
			List<Supplier<? extends C>> extras, int concurrency, BiConsumer<C, String> run) {
		for (int round = 1; round <= this.options.rounds(); round++) {
			List<Supplier<? extends C>> inRound = new ArrayList<>(engines);
			if (round <= this.options.extraRounds()) {
				inRound.addAll(extras);
			}
			for (Supplier<? extends C> factory : inRound) {
				try (C engine = factory.get()) {
					String prefix = idPrefix + "-" + shortId();
					int count = warmUp(concurrency, (i) -> run.accept(engine, prefix + "-w" + i));
					PgCounters.Snapshot before = this.counters.read(engine);
					boolean breakdown = this.options.statements() && round == 1;
					if (breakdown) {
						new JdbcTemplate(engine.pool()).execute("SELECT pg_stat_statements_reset()");
					}
					ClientLoops.Loop measured = ClientLoops.loop(concurrency, count,
							(i) -> run.accept(engine, prefix + "-m" + i));
					PgCounters.Snapshot delta = this.counters.read(engine).minus(before);
					this.report.record(scenario, engine.name(), round, measured, delta, null);
					if (breakdown) {
						this.report.printStatements(engine, measured.count());
					}
				}
			}
		}
	}

	/**
	 * Scenario 3: workflows parked on a signal; the client sends the signal and waits for
	 * the result, one workflow at a time.
	 */
	void signal(List<Supplier<? extends Contender>> engines) {
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
	 * Scenario 5 (Durable only): replay of one run's history of about the given number of
	 * events.
	 */
	void replay(Supplier<DurableContender> factory) {
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
		this.report.record(String.format("replay of a %,d-event history", events), ComparisonReport.DURABLE, 1,
				measured, delta, String.format("%,.0f events/s; one row = one replay", eventsPerSecond));
	}

	/**
	 * The database's own ceiling for comparison: one single-row INSERT per transaction
	 * over JDBC (the zonky binaries ship no pgbench), at concurrency 1 and 16, on a
	 * database of its own.
	 */
	void ceiling(EmbeddedDatabase database) {
		for (int concurrency : new int[] { 1, 16 }) {
			try (HikariDataSource pool = database.pool("bench_ceiling", "ceiling", concurrency)) {
				JdbcTemplate jdbc = new JdbcTemplate(pool);
				jdbc.execute("CREATE TABLE IF NOT EXISTS ceiling (id bigserial PRIMARY KEY, payload text)");
				IntConsumer insert = (i) -> jdbc.update("INSERT INTO ceiling (payload) VALUES (?)", "row " + i);
				int count = warmUp(concurrency, insert);
				PgCounters.Snapshot before = this.counters.read("bench_ceiling", pool);
				ClientLoops.Loop measured = ClientLoops.loop(concurrency, count, insert);
				PgCounters.Snapshot delta = this.counters.read("bench_ceiling", pool).minus(before);
				this.report.record("single-row insert per transaction (JDBC), concurrency " + concurrency, "PostgreSQL",
						1, measured, delta, "the ceiling: one row = one transaction");
			}
		}
	}

	/**
	 * Runs the operation for the warm-up time and returns how many operations fill the
	 * measured time at the rate seen (at least 10 per client). No warm-up time: one per
	 * client.
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
			throw new IllegalStateException(
					engine.name() + ": only " + ParkProbe.count() + " of " + count + " workflows reached their wait");
		}
		return ids;
	}

	static String shortId() {
		return UUID.randomUUID().toString().substring(0, 8);
	}

}
