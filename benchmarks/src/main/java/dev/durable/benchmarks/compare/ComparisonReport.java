package dev.durable.benchmarks.compare;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.benchmarks.LatencyStats;

/**
 * What the comparison prints: a line per measurement as it is made, the statements an
 * engine ran (option {@code --statements}), and the closing table with each engine's
 * rounds pooled and the ratio Durable / DBOS per scenario.
 */
final class ComparisonReport {

	/**
	 * The engines' names in the report; the ratio line divides the first's numbers by the
	 * second's.
	 */
	static final String DURABLE = "Durable";

	static final String DBOS = "DBOS";

	/**
	 * Durable with each step a local activity (opt-in, a weaker guarantee): a row of its
	 * own.
	 */
	static final String DURABLE_LOCAL = "Durable local activities";

	/**
	 * The labels of the ratio lines of a Durable-only scenario (see
	 * {@link #compareWith}): its Durable line over DBOS's line of the reference scenario,
	 * and over Durable's.
	 */
	static final String AGAINST_DBOS_INLINE = "**ratio Durable/DBOS inline steps (same run)**";

	static final String AGAINST_DURABLE_INLINE = "**ratio Durable task queue/inline steps**";

	/**
	 * The lines of the Durable-only scenarios of events and SQL starts
	 * ({@link EventsAndSqlScenarios}), each set against the other of its pair.
	 */
	static final String DURABLE_ONE_EVENT = "Durable, one event";

	static final String DURABLE_SIGNALS = "Durable, a signal each";

	static final String DURABLE_SQL_START = "Durable, SQL start_workflow";

	static final String DURABLE_CLIENT_START = "Durable, client.start";

	private final PrintStream out;

	/**
	 * Accumulated measurements, by scenario then engine, in the order they were first
	 * made.
	 */
	private final Map<String, Map<String, Tally>> tallies = new LinkedHashMap<>();

	/** Durable-only scenarios and the scenario whose lines they are set against. */
	private final Map<String, String> comparedWith = new LinkedHashMap<>();

	/**
	 * Ratio lines between two lines of one scenario: by scenario, label then the two
	 * engines' names (a over b).
	 */
	private final Map<String, List<String>> pairRatios = new LinkedHashMap<>();

	ComparisonReport(PrintStream out) {
		this.out = out;
	}

	/** The scenario lines of the report: scenario, then engine, then its tally. */
	Map<String, Map<String, Tally>> tallies() {
		return this.tallies;
	}

	/**
	 * Sets the Durable line of a scenario that DBOS cannot run against both lines of
	 * another scenario of the same run (when it ran): DBOS's, and Durable's own.
	 */
	void compareWith(String scenario, String reference) {
		this.comparedWith.put(scenario, reference);
	}

	/**
	 * Adds a ratio line to a scenario's lines in the table: line {@code a} over line
	 * {@code b} (when both ran).
	 */
	void ratio(String scenario, String label, String a, String b) {
		this.pairRatios.put(scenario, List.of(label, a, b));
	}

	void record(String scenario, String engine, int round, ClientLoops.Loop loop, PgCounters.Snapshot delta,
			String notes) {
		Tally tally = this.tallies.computeIfAbsent(scenario, (s) -> new LinkedHashMap<>())
			.computeIfAbsent(engine, (e) -> new Tally());
		tally.add(loop, delta, notes);
		LatencyStats stats = LatencyStats.of(loop.latencies());
		this.out.printf(
				"  %-45s %-8s round %d: %,7d workflows %8.0f/s  p50 %7s ms  p99 %7s ms  %5.2f tx/wf  "
						+ "%5.2f WAL flushes/wf  CPU %s ms/wf%s%n",
				scenario, engine, round, loop.count(), loop.count() / (loop.nanos() / 1e9),
				LatencyStats.millis(stats.p50()), LatencyStats.millis(stats.p99()),
				delta.xactCommit() / (double) loop.count(), delta.walSync() / (double) loop.count(),
				cpu(delta.cpu(), loop.count()), (notes != null) ? "  (" + notes + ")" : "");
	}

	/**
	 * The statements the engine ran in the measurement just made, per workflow (option
	 * --statements).
	 */
	void printStatements(Contender engine, int workflows) {
		JdbcTemplate jdbc = new JdbcTemplate(engine.pool());
		List<Map<String, Object>> rows = jdbc.queryForList("""
				SELECT calls, total_plan_time, total_exec_time, regexp_replace(query, '\\s+', ' ', 'g') AS query
				FROM pg_stat_statements
				WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
				  AND query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC LIMIT 25""");
		this.out.printf(
				"    statements per workflow (%s, %d workflows; calls, then planning + execution ms per call):%n",
				engine.name(), workflows);
		for (Map<String, Object> row : rows) {
			double perWorkflow = ((Number) row.get("calls")).doubleValue() / workflows;
			if (perWorkflow >= 0.05) {
				String query = (String) row.get("query");
				double calls = ((Number) row.get("calls")).doubleValue();
				this.out.printf("    %6.2f  %6.3f + %6.3f  %s%n", perWorkflow,
						((Number) row.get("total_plan_time")).doubleValue() / calls,
						((Number) row.get("total_exec_time")).doubleValue() / calls,
						(query.length() > 130) ? query.substring(0, 130) + "..." : query);
			}
		}
		printTableWrites(jdbc);
	}

	/**
	 * Rows written per table since the database was created (warm-ups included), and the
	 * share of updates that were heap-only: an update that changes no indexed column (nor
	 * a column a partial index's predicate reads) adds no index entries.
	 */
	private void printTableWrites(JdbcTemplate jdbc) {
		List<Map<String, Object>> tables = jdbc.queryForList("""
				SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del FROM pg_stat_user_tables
				WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY n_tup_upd + n_tup_ins DESC""");
		this.out.println("    rows written per table (all rounds so far; inserts, updates, heap-only share, deletes):");
		for (Map<String, Object> t : tables) {
			long updates = ((Number) t.get("n_tup_upd")).longValue();
			long hot = ((Number) t.get("n_tup_hot_upd")).longValue();
			this.out.printf("    %-22s %,10d  %,10d  %5.1f%%  %,10d%n", t.get("relname"),
					((Number) t.get("n_tup_ins")).longValue(), updates, (updates == 0) ? 0.0 : 100.0 * hot / updates,
					((Number) t.get("n_tup_del")).longValue());
		}
	}

	void printTable() {
		this.out.println("| scenario | engine | workflows | workflows/s | p50 ms | p99 ms | transactions/wf "
				+ "| WAL flushes/wf | CPU ms/wf (JVM + PostgreSQL) | notes |");
		this.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---|");
		for (Map.Entry<String, Map<String, Tally>> scenario : this.tallies.entrySet()) {
			for (Map.Entry<String, Tally> engine : scenario.getValue().entrySet()) {
				Tally t = engine.getValue();
				this.out.printf("| %s | %s | %,d | %.0f | %s | %s | %.2f | %.2f | %s | %s |%n", scenario.getKey(),
						engine.getKey(), t.count(), t.perSecond(), LatencyStats.millis(t.stats().p50()),
						LatencyStats.millis(t.stats().p99()), t.transactionsPerWorkflow(), t.walFlushesPerWorkflow(),
						cpu(t.cpu(), t.count()), t.notes());
			}
			Tally durable = scenario.getValue().get(DURABLE);
			printRatio(scenario.getKey(), "**ratio Durable/DBOS**", durable, scenario.getValue().get(DBOS));
			for (String peer : List.of(FlowableContender.ASYNC, FlowableContender.ONE_TRANSACTION)) {
				printRatio(scenario.getKey(), "**ratio Durable/" + peer + "**", durable, scenario.getValue().get(peer));
			}
			printRatio(scenario.getKey(), "**ratio Durable local activities/DBOS**",
					scenario.getValue().get(DURABLE_LOCAL), scenario.getValue().get(DBOS));
			List<String> pair = this.pairRatios.get(scenario.getKey());
			if (pair != null) {
				printRatio(scenario.getKey(), pair.get(0), scenario.getValue().get(pair.get(1)),
						scenario.getValue().get(pair.get(2)));
			}
			Map<String, Tally> reference = this.tallies.get(this.comparedWith.get(scenario.getKey()));
			if (reference != null) {
				printRatio(scenario.getKey(), AGAINST_DBOS_INLINE, durable, reference.get(DBOS));
				printRatio(scenario.getKey(), AGAINST_DURABLE_INLINE, durable, reference.get(DURABLE));
			}
		}
	}

	/** A ratio line of the table, a / b, when both lines exist. */
	private void printRatio(String scenario, String label, Tally a, Tally b) {
		if (a == null || b == null) {
			return;
		}
		this.out.printf("| %s | %s | | **%s** | **%s** | **%s** | **%s** | **%s** | **%s** | |%n", scenario, label,
				ratio(a.perSecond(), b.perSecond()), ratio(a.stats().p50(), b.stats().p50()),
				ratio(a.stats().p99(), b.stats().p99()),
				ratio(a.transactionsPerWorkflow(), b.transactionsPerWorkflow()),
				ratio(a.walFlushesPerWorkflow(), b.walFlushesPerWorkflow()),
				ratio(a.cpuPerWorkflow(), b.cpuPerWorkflow()));
	}

	/** CPU per workflow: this JVM + the PostgreSQL server, in milliseconds. */
	private static String cpu(CpuCounters.Reading cpu, long count) {
		return String.format("%.2f + %.2f", cpu.jvmNanos() / 1e6 / count, cpu.postgresNanos() / 1e6 / count);
	}

	private static String ratio(double a, double b) {
		return (b == 0) ? "n/a" : String.format("%.2fx", a / b);
	}

}
