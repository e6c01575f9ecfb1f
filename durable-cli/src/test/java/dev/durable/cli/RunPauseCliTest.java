package dev.durable.cli;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code durable pause}, {@code unpause}, {@code list --paused} and
 * {@code batch start pause}: the run's pause state as a person and a script read it.
 */
class RunPauseCliTest extends CliTestSupport {

	private Run ok(String... args) {
		Run run = cli(args);
		assertThat(run.exitCode()).as("%s", run).isZero();
		return run;
	}

	private void ticket(String workflowId) {
		ok("start", "ticket", "--id", workflowId, "--input", "{\"title\":\"" + workflowId + "\",\"priority\":2}");
	}

	@Test
	void pauseDescribeListAndUnpause() {
		ticket("pause-cli-1");
		assertThat(ok("pause", "pause-cli-1", "--reason", "waiting for legal").out())
			.startsWith("Paused pause-cli-1 (run ");
		assertThat(ok("pause", "pause-cli-1").out()).contains("was paused already");
		assertThat(ok("describe", "pause-cli-1").out()).contains("Paused")
			.contains("(waiting for legal)")
			.contains("Waiting on")
			.contains("UNPAUSE unpause: waiting for legal")
			.contains("CONDITION TicketWorkflow.run at TicketWorkflow.run(TicketWorkflow.java:");
		assertThat(ok("-o", "json", "describe", "pause-cli-1").json().path("pauseReason").asString())
			.isEqualTo("waiting for legal");
		assertThat(ok("list", "--paused").out()).contains("pause-cli-1");
		assertThat(ok("-o", "json", "list", "--paused").json().path("executions").get(0).path("paused").asBoolean())
			.isTrue();

		assertThat(ok("-o", "json", "unpause", "pause-cli-1").json().path("changed").asBoolean()).isTrue();
		assertThat(ok("unpause", "pause-cli-1").out()).contains("was not paused");
		ok("signal", "pause-cli-1", "close");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> cli("-o", "json", "describe", "pause-cli-1").json().path("status").asString(),
					"COMPLETED"::equals);
	}

	@Test
	void aBatchPausesByFilterAndTheExitCodesOfAMissingOrClosedRun() {
		ticket("pause-cli-batch-1");
		ticket("pause-cli-batch-2");
		ok("batch", "start", "pause", "--id", "pause-cli-batch", "--prefix", "pause-cli-batch-", "--reason", "audit");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> cli("-o", "json", "batch", "describe", "pause-cli-batch").json().path("state").asString(),
					"COMPLETED"::equals);
		assertThat(ok("describe", "pause-cli-batch-2").out()).contains("(audit)");
		ok("batch", "start", "unpause", "--id", "unpause-cli-batch", "--prefix", "pause-cli-batch-", "--paused");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> Output.text(cli("-o", "json", "describe", "pause-cli-batch-1").json().path("pausedAt"))
				.isEmpty());

		assertThat(cli("pause", "no-such-ticket").exitCode()).isEqualTo(ExitCode.NOT_FOUND);
		ok("terminate", "pause-cli-batch-1", "--reason", "done");
		Run closed = cli("pause", "pause-cli-batch-1");
		assertThat(closed.exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(closed.err()).contains("WORKFLOW_CLOSED");
		assertThat(cli("pause").exitCode()).isEqualTo(ExitCode.USAGE);
	}

}
