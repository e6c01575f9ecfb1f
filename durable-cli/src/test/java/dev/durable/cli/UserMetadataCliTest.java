package dev.durable.cli;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code durable start --summary --details}, and describe showing them. */
class UserMetadataCliTest extends CliTestSupport {

	@Test
	void aStartsSummaryAndDetailsAreShownByDescribe() {
		Run started = cli("start", "ticket", "--id", "metadata-cli-1", "--input", "{\"title\":\"t\",\"priority\":2}",
				"--summary", "Printer on floor 3", "--details", "paper jam, again");
		assertThat(started.exitCode()).as("%s", started).isZero();
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(cli("describe", "metadata-cli-1").out()).contains("Summary",
					"Printer on floor 3", "Details", "paper jam, again"));
		assertThat(cli("-o", "json", "list", "--prefix", "metadata-cli-").json()
			.path("executions")
			.get(0)
			.path("summary")
			.asString()).isEqualTo("Printer on floor 3");
		assertThat(cli("start", "ticket", "--options", "[1]", "--summary", "s").exitCode()).isEqualTo(ExitCode.USAGE);
	}

}
