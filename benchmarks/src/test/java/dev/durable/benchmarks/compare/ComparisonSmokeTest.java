package dev.durable.benchmarks.compare;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The comparison with tiny counts, as part of the normal build: every scenario (but the
 * 20-step one, the 3-step one's code with more steps) runs on both engines (the replay
 * and the task queue on Durable only; the steps also with local activities and on
 * Flowable in its two modes) and the report has its lines. It measures nothing worth
 * reading (no warm-up to speak of, counters read without settling).
 */
class ComparisonSmokeTest {

	@Test
	void everyScenarioCompletesOnBothEnginesAndIsReported() {
		// every scenario but "steps20": the steps scenario's code with more steps, and a
		// third of the smoke run's time (the second peer's asynchronous mode takes
		// seconds
		// per 20-step workflow)
		List<String> scenarios = ComparisonBenchmark.SCENARIOS.stream()
			.filter((scenario) -> !scenario.equals("steps20"))
			.toList();
		ComparisonBenchmark.Options options = new ComparisonBenchmark.Options(scenarios, 1, 1, Duration.ZERO,
				Duration.ZERO, Duration.ofMillis(200), 3, 20, 200, 2, 20, 20, 4, Duration.ZERO, "off", "off", false,
				false);
		ByteArrayOutputStream buffer = new ByteArrayOutputStream();
		ComparisonBenchmark benchmark = new ComparisonBenchmark(options,
				new PrintStream(buffer, true, StandardCharsets.UTF_8));

		boolean ok = benchmark.run();

		String report = buffer.toString(StandardCharsets.UTF_8);
		System.out.println(report);
		assertThat(benchmark.problems()).as(report).isEmpty();
		assertThat(ok).isTrue();
		Map<String, Map<String, Tally>> lines = benchmark.tallies();
		assertThat(lines.keySet()).contains("3 steps, concurrency 1", "3 steps, concurrency 16",
				"3 steps, concurrency 64", ComparisonScenarios.queuedScenario(16),
				ComparisonScenarios.queuedScenario(64), ComparisonScenarios.taskQueueScenario(1),
				ComparisonScenarios.taskQueueScenario(16), "signal to completion, concurrency 1",
				"park 20 (start, concurrency 16)", "wake 20 (signals from 16 threads)",
				EventsAndSqlScenarios.wakeScenario(20), EventsAndSqlScenarios.startScenario(20));
		lines.forEach((scenario, engines) -> {
			if (scenario.startsWith("replay")) {
				assertThat(engines).as(scenario).containsOnlyKeys("Durable");
			}
			else if (scenario.contains("task queue")) {
				// DBOS has no remote worker pool: the line is set against both inline
				// 3-step lines
				assertThat(engines).as(scenario).containsOnlyKeys("Durable");
				assertThat(report).contains("| " + scenario + " | " + ComparisonReport.AGAINST_DBOS_INLINE + " |",
						"| " + scenario + " | " + ComparisonReport.AGAINST_DURABLE_INLINE + " |");
			}
			else if (scenario.equals(EventsAndSqlScenarios.wakeScenario(20))) {
				// Durable against itself: one event, or a signal each
				assertThat(engines).as(scenario)
					.containsOnlyKeys(ComparisonReport.DURABLE_ONE_EVENT, ComparisonReport.DURABLE_SIGNALS);
				assertThat(report).contains("| " + scenario + " | **ratio one event/signals** |");
			}
			else if (scenario.equals(EventsAndSqlScenarios.startScenario(20))) {
				assertThat(engines).as(scenario)
					.containsOnlyKeys(ComparisonReport.DURABLE_SQL_START, ComparisonReport.DURABLE_CLIENT_START);
				assertThat(report).contains("| " + scenario + " | **ratio SQL/client starts** |");
			}
			else if (scenario.startsWith("single-row insert")) {
				assertThat(engines).as(scenario).containsOnlyKeys("PostgreSQL");
			}
			else if (scenario.equals("3 steps, concurrency 64")) {
				// Flowable is measured up to 16 clients
				assertThat(engines).as(scenario).containsOnlyKeys("Durable", "DBOS", ComparisonReport.DURABLE_LOCAL);
			}
			else if (scenario.contains(" steps, concurrency")) {
				// local activities, and the second peer in its two modes, run the steps
				// scenarios
				assertThat(engines).as(scenario)
					.containsOnlyKeys("Durable", "DBOS", ComparisonReport.DURABLE_LOCAL, FlowableContender.ASYNC,
							FlowableContender.ONE_TRANSACTION);
				assertThat(report).contains("| " + scenario + " | **ratio Durable/DBOS** |",
						"| " + scenario + " | **ratio Durable local activities/DBOS** |",
						"| " + scenario + " | **ratio Durable/" + FlowableContender.ASYNC + "** |",
						"| " + scenario + " | **ratio Durable/" + FlowableContender.ONE_TRANSACTION + "** |");
			}
			else {
				assertThat(engines).as(scenario).containsOnlyKeys("Durable", "DBOS");
				assertThat(report).contains("| " + scenario + " | **ratio Durable/DBOS** |");
			}
			engines.forEach((engine, tally) -> {
				assertThat(tally.count()).as(scenario + " " + engine).isPositive();
				assertThat(tally.perSecond()).as(scenario + " " + engine).isPositive();
				assertThat(report).contains("| " + scenario + " | " + engine + " |");
			});
		});
		assertThat(lines.keySet()).anyMatch((scenario) -> scenario.startsWith("replay of a "));
		assertThat(report).contains("| scenario | engine | workflows | workflows/s | p50 ms | p99 ms |");
	}

}
