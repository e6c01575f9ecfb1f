package dev.durable.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code durable replay-check}: the node replays its stored runs, or the history files a
 * directory holds, on its code; exit code 6 and the first mismatch of each history that
 * does not replay.
 */
class ReplayCheckCliTest extends CliTestSupport {

	private String closedTicketHistory(String workflowId) {
		assertThat(cli("start", "ticket", "--id", workflowId, "--input", "{\"title\":\"t\",\"priority\":2}").exitCode())
			.isZero();
		assertThat(cli("signal", workflowId, "close").exitCode()).isZero();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> cli("-o", "json", "describe", workflowId).json().path("status").asString(),
					"COMPLETED"::equals);
		Run history = cli("-o", "json", "history", workflowId);
		assertThat(history.exitCode()).isZero();
		return history.out();
	}

	@Test
	void storedRunsReplayOnTheNodesCode() {
		closedTicketHistory("replay-cli-1");
		Run table = cli("replay-check", "--type", "ticket", "--sample-size", "5");
		assertThat(table.exitCode()).as("%s", table).isZero();
		assertThat(table.out()).contains("TYPE", "CHECKED", "ticket", "Every history replays on the node's code.");

		Run json = cli("-o", "json", "replay-check", "--open-only");
		assertThat(json.exitCode()).as("%s", json).isZero();
		assertThat(json.json().path("types").get(0).path("workflowType").asString()).isEqualTo("ticket");
	}

	@Test
	void historyFilesThatDoNotReplayAreListedAndExitSix(@TempDir Path directory) throws Exception {
		String history = closedTicketHistory("replay-cli-2");
		Files.writeString(directory.resolve("a-unchanged.json"), history);
		// what a build that completed the ticket another way recorded
		Files.writeString(directory.resolve("b-changed.json"),
				history.replace("\"WORKFLOW_COMPLETED\"", "\"CONTINUED_AS_NEW\""));
		Files.writeString(directory.resolve("notes.txt"), "not a history");

		Run run = cli("replay-check", "--histories", directory.toString());
		assertThat(run.exitCode()).as("%s", run).isEqualTo(ExitCode.NOT_REPLAYABLE);
		assertThat(run.out()).contains("ticket", "replay-cli-2", "MISMATCH", "FIRST MISMATCH");
		assertThat(run.err()).contains("durable: 1 of 2 histories do not replay on the node's code");

		Run json = cli("-o", "json", "replay-check", "--histories", directory.toString());
		JsonNode type = json.json().path("types").get(0);
		assertThat(type.path("checked").asInt()).isEqualTo(2);
		assertThat(type.path("failures").size()).isEqualTo(1);

		Files.delete(directory.resolve("b-changed.json"));
		assertThat(cli("replay-check", "--histories", directory.toString()).exitCode()).isZero();
	}

	@Test
	void badArgumentsAreUsageErrorsOrRefusals(@TempDir Path empty) throws Exception {
		assertThat(cli("replay-check", "--histories", empty.toString()).exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(cli("replay-check", "--histories", empty.resolve("missing").toString()).exitCode())
			.isEqualTo(ExitCode.USAGE);
		assertThat(cli("replay-check", "--histories", empty.toString(), "--type", "ticket").exitCode())
			.isEqualTo(ExitCode.USAGE);
		assertThat(cli("replay-check", "--sample-size", "many").exitCode()).isEqualTo(ExitCode.USAGE);
		Files.writeString(empty.resolve("broken.json"), "{not json");
		Run broken = cli("replay-check", "--histories", empty.toString());
		assertThat(broken.exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(broken.err()).contains("broken.json").doesNotContain("not json");
		Run unknown = cli("replay-check", "--type", "nope");
		assertThat(unknown.exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(unknown.err()).contains("UNKNOWN_TYPE");
		Run tooMany = cli("replay-check", "--sample-size", "5000");
		assertThat(tooMany.exitCode()).isEqualTo(ExitCode.REJECTED);
	}

}
