package dev.durable.benchmarks.compare;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.benchmarks.LatencyStats;

/**
 * What the comparison prints: a line per measurement as it is made, the statements an engine ran
 * (option {@code --statements}), and the closing table with each engine's rounds pooled and the
 * ratio Durable / DBOS per scenario.
 */
final class ComparisonReport {

	/** The engines' names in the report; the ratio line divides the first's numbers by the second's. */
	static final String DURABLE = "Durable";

	static final String DBOS = "DBOS";

	private final PrintStream out;

	/** Accumulated measurements, by scenario then engine, in the order they were first made. */
	private final Map<String, Map<String, Tally>> tallies = new LinkedHashMap<>();

	ComparisonReport(PrintStream out) {
		this.out = out;
	}

	/** The scenario lines of the report: scenario, then engine, then its tally. */
	Map<String, Map<String, Tally>> tallies() {
		return this.tallies;
	}

	void record(String scenario, String engine, int round, ClientLoops.Loop loop, PgCounters.Snapshot delta,
			String notes) {
		Tally tally = this.tallies.computeIfAbsent(scenario, (s) -> new LinkedHashMap<>())
			.computeIfAbsent(engine, (e) -> new Tally());
		tally.add(loop, delta, notes);
		LatencyStats stats = LatencyStats.of(loop.latencies());
		this.out.printf("  %-45s %-8s round %d: %,7d workflows %8.0f/s  p50 %7s ms  p99 %7s ms  %5.2f tx/wf  "
				+ "%5.2f WAL flushes/wf  CPU %s ms/wf%s%n", scenario, engine, round, loop.count(),
				loop.count() / (loop.nanos() / 1e9), LatencyStats.millis(stats.p50()), LatencyStats.millis(stats.p99()),
				delta.xactCommit() / (double) loop.count(), delta.walSync() / (double) loop.count(),
				cpu(delta.cpu(), loop.count()), (notes != null) ? "  (" + notes + ")" : "");
	}

	/** The statements the engine ran in the measurement just made, per workflow (option --statements). */
	void printStatements(Contender engine, int workflows) {
		JdbcTemplate jdbc = new JdbcTemplate(engine.pool());
		List<Map<String, Object>> rows = jdbc.queryForList("""
				SELECT calls, total_plan_time, total_exec_time, regexp_replace(query, '\\s+', ' ', 'g') AS query
				FROM pg_stat_statements
				WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
				  AND query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC LIMIT 25""");
		this.out.printf("    statements per workflow (%s, %d workflows; calls, then planning + execution ms per call):%n",
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
			Tally dbos = scenario.getValue().get(DBOS);
			if (durable != null && dbos != null) {
				this.out.printf("| %s | **ratio Durable/DBOS** | | **%s** | **%s** | **%s** | **%s** | **%s** | **%s** | |%n",
						scenario.getKey(), ratio(durable.perSecond(), dbos.perSecond()),
						ratio(durable.stats().p50(), dbos.stats().p50()), ratio(durable.stats().p99(), dbos.stats().p99()),
						ratio(durable.transactionsPerWorkflow(), dbos.transactionsPerWorkflow()),
						ratio(durable.walFlushesPerWorkflow(), dbos.walFlushesPerWorkflow()),
						ratio(durable.cpuPerWorkflow(), dbos.cpuPerWorkflow()));
			}
		}
	}

	/** CPU per workflow: this JVM + the PostgreSQL server, in milliseconds. */
	private static String cpu(CpuCounters.Reading cpu, long count) {
		return String.format("%.2f + %.2f", cpu.jvmNanos() / 1e6 / count, cpu.postgresNanos() / 1e6 / count);
	}

	private static String ratio(double a, double b) {
		return (b == 0) ? "n/a" : String.format("%.2fx", a / b);
	}

}
