package dev.durable.benchmarks.scale;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scale-out benchmark with tiny counts, as part of the normal build: node JVMs start,
 * run the clients' workflows and signals, the at-rest readings are taken, and the report
 * has its lines. It measures nothing worth reading.
 */
class ScaleOutSmokeTest {

	@Test
	void oneAndTwoNodeJvmsRunTheWorkflowsAndAreReported() {
		ScaleOutBenchmark.Options options = new ScaleOutBenchmark.Options(List.of(1, 2), 4, Duration.ofSeconds(1),
				Duration.ofSeconds(4), 10, 50, Duration.ofSeconds(1), Duration.ofSeconds(1), 4);
		ByteArrayOutputStream buffer = new ByteArrayOutputStream();
		ScaleOutBenchmark benchmark = new ScaleOutBenchmark(options,
				new PrintStream(buffer, true, StandardCharsets.UTF_8));

		boolean ok = benchmark.run();

		String report = buffer.toString(StandardCharsets.UTF_8);
		System.out.println(report);
		assertThat(ok).isTrue();
		assertThat(benchmark.rows()).extracting(ScaleOutBenchmark.Row::nodes).containsExactly(1, 2);
		benchmark.rows().forEach((row) -> {
			assertThat(row.workflows()).as(report).isPositive();
			assertThat(row.signal().count()).as(report).isEqualTo(10);
		});
		assertThat(benchmark.rests()).extracting(ScaleOutBenchmark.Rest::openRuns).containsExactly(0, 50);
		assertThat(report).contains("| 1 | ", "| 2 | ", "| 50 | ");
		// each node's clients start their runs on it: they run and close there
		assertThat(report).contains("1 node(s), the throughput phase:", "2 node(s), the throughput phase:")
			.doesNotContainPattern("[1-9][0-9,]* owned by another node")
			.doesNotContainPattern("[1-9][0-9,]* claimed again")
			.contains("CPU in the measured window, ms by kind of thread");
	}

	@Test
	void threadKindsDropTheNumbersAndNotificationKindsFollowTheTargets() {
		assertThat(ThreadCpu.kind("C2 CompilerThread0")).isEqualTo("C2 CompilerThread");
		assertThat(ThreadCpu.kind("GC Thread#3")).isEqualTo("GC Thread");
		assertThat(ThreadCpu.kind("durable-writer-1")).isEqualTo("durable-writer");
		assertThat(ThreadCpu.kind("42")).isEqualTo("42");
		assertThat(ThroughputProbe.kind("*")).isEqualTo("any node");
		assertThat(ThroughputProbe.kind("0190c6a2-1111-7000-8000-000000000001")).isEqualTo("node");
		assertThat(ThroughputProbe.kind("R:0190c6a2-1111-7000-8000-000000000001:x")).isEqualTo("run");
		assertThat(ThroughputProbe.kind("O:0190c6a2-1111-7000-8000-000000000001")).isEqualTo("outputs");
	}

}
