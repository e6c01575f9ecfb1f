package dev.durable.chaos;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The network faults' CI version: 2 engine JVMs in network namespaces of their own, 300
 * workflows over 90 s while one node is partitioned from the database past
 * {@code dead-after} (both ways), then another partition drops only the database's
 * packets to a node, then 2% loss on one link and 10 ms latency on one node's
 * connections. Every check of the chaos harness, plus: a partitioned node answers its
 * REST callers 503 (not a hang) once its lease ran out, writes and claims nothing from
 * then until the heal, and another node takes its runs over. Needs root, {@code ip} and
 * {@code iptables}; skipped otherwise. The report is kept in
 * {@code target/chaos-network/report.txt}.
 */
class NetworkPartitionIT {

	@Test
	void aPartitionedNodeStopsByItselfAndNothingIsLostOrDoneTwice() throws Exception {
		String unavailable = ChaosNetwork.unavailableReason();
		assumeTrue(unavailable == null, () -> "NetworkPartitionIT skipped: " + unavailable);
		ChaosReport report = new ChaosHarness(ChaosOptions.networkSmoke(Path.of("target", "chaos-network"))).run();
		System.out.println(report.render());
		assertThat(report.violations()).isEmpty();
		assertThat(report.counter("faults: network partition from the database")).isEqualTo(1);
		assertThat(report.counter("faults: network one-way partition")).isEqualTo(1);
		assertThat(report.counter("faults: network packet loss")).isEqualTo(1);
		assertThat(report.counter("faults: network latency")).isEqualTo(1);
		assertThat(report.counter("starts accepted")).isEqualTo(300);
	}

}
