package dev.durable.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the network faults judge a partitioned node: a REST call sent once its lease ran
 * out must get 503, not hang and not an answer it could only have read from the database;
 * calls before the lease ran out, or answered after the heal, may be anything.
 */
class NetworkProbeJudgementTest {

	private static final Duration LASTING = ChaosOptions.DEAD_AFTER.plusSeconds(6);

	private static final long AFTER_LEASE = ChaosOptions.DEAD_AFTER.toMillis() + 500;

	@Test
	void aHangOrAnAnswerFromTheDatabaseAfterTheLeaseRanOutIsAViolation() {
		ChaosReport report = new ChaosReport();
		NetworkFaults.judgeProbes("node2", "partition", LASTING,
				List.of(new NetworkFaults.Probe(0, 5000, "hang"), new NetworkFaults.Probe(AFTER_LEASE, 5000, "hang"),
						new NetworkFaults.Probe(AFTER_LEASE + 1000, 20, "404")),
				report);
		assertThat(report.violations()).hasSize(2);
		assertThat(report.violations().get(0)).contains("node2").contains("with hang instead of 503");
		assertThat(report.violations().get(1)).contains("with 404 instead of 503");
	}

	@Test
	void fast503sAndAnswersAfterTheHealPass() {
		ChaosReport report = new ChaosReport();
		NetworkFaults.judgeProbes("node2", "partition", LASTING,
				List.of(new NetworkFaults.Probe(0, 3000, "503"), new NetworkFaults.Probe(AFTER_LEASE, 30, "503"),
						new NetworkFaults.Probe(LASTING.toMillis() - 500, 900, "404")),
				report);
		assertThat(report.violations()).isEmpty();
	}

	@Test
	void noProbeAtAllIsAViolation() {
		ChaosReport report = new ChaosReport();
		NetworkFaults.judgeProbes("node2", "partition", LASTING, List.of(), report);
		assertThat(report.violations()).singleElement().asString().contains("no REST probe");
	}

	@Test
	void aRequestToAPartitionedNodeIsPastItsLeaseFromDeadAfterUntilTheHeal() {
		Outages outages = new Outages(Duration.ofSeconds(10));
		Outages.Window window = outages.begin("node2", "partition");
		Instant from = Instant.parse("2026-12-07T02:00:00Z");
		outages.partitioned(window, from);
		assertThat(outages.partitionedPastLease(from.plusSeconds(1), "node2")).isFalse();
		assertThat(outages.partitionedPastLease(from.plus(ChaosOptions.DEAD_AFTER).plusSeconds(1), "node2")).isTrue();
		assertThat(outages.partitionedPastLease(from.plus(ChaosOptions.DEAD_AFTER).plusSeconds(1), "node1")).isFalse();
		outages.end(window);
		assertThat(outages.partitionedPastLease(Instant.now().plusSeconds(1), "node2")).isFalse();
	}

}
