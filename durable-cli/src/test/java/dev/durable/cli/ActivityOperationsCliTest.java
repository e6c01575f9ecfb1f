package dev.durable.cli;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.cli.app.Uploads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code durable activity pause|unpause|reset|update-options}: a pending activity's pause
 * and options as a person and a script read them, and the exit codes of an activity the
 * run does not wait for, a bad activity id, a missing option and a closed run.
 */
class ActivityOperationsCliTest extends CliTestSupport {

	@AfterEach
	void storageUp() {
		Uploads.up = false;
	}

	private Run ok(String... args) {
		Run run = cli(args);
		assertThat(run.exitCode()).as("%s", run).isZero();
		return run;
	}

	/**
	 * Starts an upload and waits until its first attempt failed (the next in an hour).
	 */
	private void upload(String workflowId) {
		Uploads.up = false;
		ok("start", "upload", "--id", workflowId, "--input", "\"" + workflowId + ".txt\"");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> cli("-o", "json", "describe", workflowId).json()
				.path("pendingActivities")
				.path(0)
				.path("lastFailure")
				.asString(""), (failure) -> failure.contains("storage unreachable"));
	}

	@Test
	void pauseDescribeUpdateOptionsResetAndUnpause() {
		upload("upload-cli-1");
		assertThat(ok("activity", "pause", "upload-cli-1", "1", "--reason", "storage migration").out())
			.startsWith("Paused activity 1 of upload-cli-1 (run ");
		assertThat(ok("activity", "pause", "upload-cli-1", "1").out()).contains("was paused already");
		assertThat(ok("describe", "upload-cli-1").out())
			.contains("#1:", "send SCHEDULED, attempt 2", "PAUSED since", "(storage migration)",
					"last failure: StorageDown: storage unreachable")
			.contains("ACTIVITY_PAUSED send, attempt 2: storage migration");
		assertThat(ok("-o", "json", "describe", "upload-cli-1").json()
			.path("pendingActivities")
			.path(0)
			.path("pausedTime")
			.asString("")).isNotEmpty();

		assertThat(
				ok("activity", "update-options", "upload-cli-1", "1", "--max-attempts", "9", "--start-to-close", "PT2M")
					.out())
			.startsWith("Updated the options of activity 1 of upload-cli-1")
			.contains("\"maximumAttempts\":9");
		assertThat(ok("-o", "json", "describe", "upload-cli-1").json()
			.path("pendingActivities")
			.path(0)
			.path("options")
			.path("startToCloseTimeout")
			.asString()).isEqualTo("PT2M");

		assertThat(ok("-o", "json", "activity", "unpause", "upload-cli-1", "1").json().path("changed").asBoolean())
			.isTrue();
		assertThat(ok("activity", "unpause", "upload-cli-1", "1").out()).contains("was not paused");

		// the storage is back: a reset starts attempt 1 at once, not in an hour
		Uploads.up = true;
		assertThat(ok("activity", "reset", "upload-cli-1", "1", "--drop-heartbeat-details").out())
			.isEqualTo("Reset activity 1 of upload-cli-1: its next attempt is attempt 1, without its heartbeat"
					+ " details" + System.lineSeparator());
		await().atMost(Duration.ofSeconds(30))
			.until(() -> cli("-o", "json", "describe", "upload-cli-1").json().path("status").asString(),
					"COMPLETED"::equals);
		assertThat(ok("history", "upload-cli-1").out()).contains("ACTIVITY_PAUSED", "ACTIVITY_OPTIONS_UPDATED",
				"ACTIVITY_UNPAUSED", "ACTIVITY_RESET");
	}

	@Test
	void theExitCodesOfAnActivityTheRunDoesNotWaitForABadIdAndAClosedRun() {
		upload("upload-cli-bad");
		Run missing = cli("activity", "pause", "upload-cli-bad", "7");
		assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
		assertThat(missing.err()).contains("ACTIVITY_NOT_PENDING");
		assertThat(cli("activity", "pause", "upload-cli-bad", "first").exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(cli("activity", "pause", "upload-cli-bad").exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(cli("activity", "stop", "upload-cli-bad", "1").exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(cli("activity", "update-options", "upload-cli-bad", "1").exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(
				cli("activity", "update-options", "upload-cli-bad", "1", "--pause-when-exhausted", "maybe").exitCode())
			.isEqualTo(ExitCode.USAGE);
		Run badDuration = cli("activity", "update-options", "upload-cli-bad", "1", "--heartbeat-timeout", "soon");
		assertThat(badDuration.exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(badDuration.err()).contains("INVALID_PAYLOAD");
		assertThat(cli("activity", "unpause", "no-such-upload", "1").exitCode()).isEqualTo(ExitCode.NOT_FOUND);

		ok("terminate", "upload-cli-bad", "--reason", "done");
		Run closed = cli("activity", "reset", "upload-cli-bad", "1");
		assertThat(closed.exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(closed.err()).contains("WORKFLOW_CLOSED");
	}

}
