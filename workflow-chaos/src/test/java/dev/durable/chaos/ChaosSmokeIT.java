package dev.durable.chaos;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chaos harness's CI version: a real PostgreSQL server, 2 engine JVMs, 300 workflows
 * over a minute with 3 SIGKILLs and a database restart, and every check of the full run
 * (nothing lost, nothing completed or recorded twice, no 5xx or ERROR outside the
 * outage). The report is printed and kept in {@code target/chaos-smoke/report.txt}.
 */
class ChaosSmokeIT {

	@Test
	void nothingIsLostOrDoneTwiceUnderKillsAndADatabaseRestart() throws Exception {
		ChaosReport report = new ChaosHarness(ChaosOptions.smoke(Path.of("target", "chaos-smoke"))).run();
		System.out.println(report.render());
		assertThat(report.violations()).isEmpty();
		assertThat(report.counter("faults: SIGKILL")).isEqualTo(3);
		assertThat(report.counter("faults: database restart -m fast")).isEqualTo(1);
		assertThat(report.counter("starts accepted")).isEqualTo(300);
	}

}
