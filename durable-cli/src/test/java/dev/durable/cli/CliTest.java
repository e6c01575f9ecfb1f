package dev.durable.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code durable} tool against a real application: every command, table and JSON
 * output, and the exit codes of a missing run, a refused request, a bad command line and
 * a server that is not there.
 */
class CliTest extends CliTestSupport {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private Run ok(String... args) {
		Run run = cli(args);
		assertThat(run.exitCode()).as("%s", run).isZero();
		assertThat(run.err()).isEmpty();
		return run;
	}

	private void ticket(String workflowId) {
		ok("start", "ticket", "--id", workflowId, "--input", "{\"title\":\"" + workflowId + "\",\"priority\":2}");
	}

	private String status(String workflowId) {
		return ok("-o", "json", "describe", workflowId).json().path("status").asString();
	}

	@Test
	void startDescribeAndListInTablesAndJson() {
		Run started = ok("-o", "json", "start", "ticket", "--id", "list-t-1", "--input",
				"{\"title\":\"printer\",\"priority\":2}");
		String runId = started.json().path("runId").asString();
		assertThat(started.json().path("workflowId").asString()).isEqualTo("list-t-1");
		ticket("list-t-2");
		ticket("list-t-3");

		assertThat(ok("describe", "list-t-1").out()).contains("Workflow ID:", "list-t-1", "Status:", "RUNNING", runId,
				"Type:", "ticket");
		JsonNode described = ok("describe", "list-t-1", "--output=json").json();
		assertThat(described.path("runId").asString()).isEqualTo(runId);
		assertThat(described.path("workflowType").asString()).isEqualTo("ticket");

		Run table = ok("list", "--type", "ticket", "--status", "running", "--prefix", "list-t-");
		assertThat(table.out().lines().findFirst()).hasValueSatisfying(
				(header) -> assertThat(header).startsWith("WORKFLOW ID").contains("TYPE", "STATUS", "STARTED"));
		assertThat(table.out()).contains("list-t-1", "list-t-2", "list-t-3", "RUNNING");
		assertThat(ok("list", "--prefix", "list-t-", "--status", "COMPLETED,FAILED").out()).doesNotContain("list-t-1");

		JsonNode first = ok("-o", "json", "list", "--prefix", "list-t-", "--page-size", "2").json();
		assertThat(ids(first)).containsExactly("list-t-3", "list-t-2");
		String token = first.path("nextPageToken").asString();
		assertThat(token).isNotBlank();
		assertThat(ok("list", "--prefix", "list-t-", "--page-size", "2").out()).contains("More: --page-token " + token);
		JsonNode second = ok("-o", "json", "list", "--prefix", "list-t-", "--page-size", "2", "--page-token", token)
			.json();
		assertThat(ids(second)).containsExactly("list-t-1");
		assertThat(second.path("nextPageToken").isNull()).isTrue();

		assertThat(ok("types").out()).contains("ticket", "addNote, close", "notes", "setPriority");
		assertThat(ok("-o", "json", "types").json().get(0).path("type").asString()).isEqualTo("ticket");
	}

	private static List<String> ids(JsonNode page) {
		List<String> ids = new ArrayList<>();
		page.path("executions").forEach((run) -> ids.add(run.path("workflowId").asString()));
		return ids;
	}

	@Test
	void signalQueryUpdateAndResult() {
		ticket("msg-t");
		assertThat(ok("signal", "msg-t", "addNote", "\"paper jam\"").out()).contains("Signaled msg-t: addNote");
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(ok("-o", "json", "query", "msg-t", "notes").json().toString())
				.isEqualTo("[\"paper jam\"]"));
		assertThat(ok("query", "msg-t", "notes").out()).contains("\"paper jam\"");

		Run update = ok("update", "msg-t", "setPriority", "1", "--update-id", "raise-1");
		assertThat(update.out()).contains("Update ID:", "raise-1", "Stage:", "COMPLETED", "Result:");
		JsonNode again = ok("-o", "json", "update", "msg-t", "setPriority", "1", "--update-id", "raise-1").json();
		assertThat(again.path("updateId").asString()).isEqualTo("raise-1");
		assertThat(again.path("result").asInt()).isEqualTo(1);

		Run running = ok("-o", "json", "result", "msg-t", "--wait", "PT0S");
		assertThat(running.json().path("status").asString()).isEqualTo("RUNNING");
		ok("signal", "msg-t", "close");
		Run result = ok("result", "msg-t", "--wait", "PT30S");
		assertThat(result.out()).contains("Status: COMPLETED", "msg-t closed at priority 1 with notes [paper jam]");
	}

	@Test
	void historyPrintsTheEventsAndFollowsARunUntilItCloses() throws Exception {
		ticket("follow-t");
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			Future<Integer> follow = executor
				.submit(() -> DurableCli.run(new String[] { "history", "follow-t", "--follow", "--interval", "100ms" },
						new PrintStream(out, true, StandardCharsets.UTF_8),
						new PrintStream(err, true, StandardCharsets.UTF_8),
						Map.of("DURABLE_URL", "http://localhost:" + this.port)));
			await().atMost(WAIT).until(() -> out.toString(StandardCharsets.UTF_8).contains("WORKFLOW_STARTED"));
			ok("signal", "follow-t", "addNote", "\"followed\"");
			await().atMost(WAIT).until(() -> out.toString(StandardCharsets.UTF_8).contains("SIGNAL_RECEIVED"));
			assertThat(follow).isNotDone();
			ok("signal", "follow-t", "close");
			assertThat(follow.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as(err.toString(StandardCharsets.UTF_8))
				.isZero();
		}
		finally {
			executor.shutdownNow();
		}
		String followed = out.toString(StandardCharsets.UTF_8);
		assertThat(followed).startsWith("EVENT").contains("WORKFLOW_COMPLETED").contains("closed: COMPLETED");
		assertThat(followed.lines().filter((line) -> line.contains("WORKFLOW_STARTED"))).hasSize(1);
		assertThat(followed.lines().filter((line) -> line.contains("SIGNAL_RECEIVED"))).hasSize(2);

		Run table = ok("history", "follow-t");
		assertThat(table.out()).contains("WORKFLOW_STARTED", "\"followed\"", "WORKFLOW_COMPLETED");
		JsonNode events = ok("-o", "json", "history", "follow-t").json();
		assertThat(events.isArray()).isTrue();
		assertThat(events.get(0).path("eventId").asLong()).isEqualTo(1);
		assertThat(events.get(events.size() - 1).path("type").asString()).isEqualTo("WORKFLOW_COMPLETED");

		// a closed run followed in JSON: one event a line, then the command ends
		Run lines = ok("-o", "json", "history", "follow-t", "--follow");
		JsonMapper json = JsonMapper.builder().build();
		List<String> types = lines.out().lines().map((line) -> json.readTree(line).path("type").asString()).toList();
		assertThat(types).hasSize(events.size()).startsWith("WORKFLOW_STARTED").endsWith("WORKFLOW_COMPLETED");
	}

	@Test
	void cancelAndTerminateWithAReason() {
		ticket("cancel-t");
		assertThat(ok("cancel", "cancel-t", "--reason", "duplicate").out()).contains("Cancel requested for cancel-t");
		await().atMost(WAIT).until(() -> !status("cancel-t").equals("RUNNING"));
		assertThat(status("cancel-t")).isEqualTo("CANCELED");

		ticket("terminate-t");
		assertThat(ok("terminate", "terminate-t", "--reason", "stuck on a bad printer").out())
			.contains("Terminated terminate-t");
		assertThat(status("terminate-t")).isEqualTo("TERMINATED");
		assertThat(ok("history", "terminate-t").out()).contains("stuck on a bad printer");
		Run again = cli("terminate", "terminate-t");
		assertThat(again.exitCode()).as("%s", again).isEqualTo(ExitCode.REJECTED);
		assertThat(again.err()).contains("WORKFLOW_CLOSED", "HTTP 409");
	}

	@Test
	void resetStartsANewRunFromTheWorkflowTaskOfAnEvent() {
		ticket("reset-t");
		String firstRun = ok("-o", "json", "describe", "reset-t").json().path("runId").asString();
		ok("signal", "reset-t", "addNote", "\"a\"");
		await().atMost(WAIT).until(() -> ok("-o", "json", "query", "reset-t", "notes").json().size() == 1);
		ok("signal", "reset-t", "addNote", "\"b\"");
		await().atMost(WAIT).until(() -> ok("-o", "json", "query", "reset-t", "notes").json().size() == 2);
		long eventId = -1;
		for (JsonNode event : ok("-o", "json", "history", "reset-t").json()) {
			if ("b".equals(event.path("attributes").path("payload").asString(""))) {
				eventId = event.path("eventId").asLong();
			}
		}
		assertThat(eventId).isPositive();

		Run reset = ok("reset", "reset-t", "--event-id", String.valueOf(eventId), "--reason", "replay the note");
		assertThat(reset.out()).contains("New run ID:");
		String newRun = ok("-o", "json", "describe", "reset-t").json().path("runId").asString();
		assertThat(newRun).isNotEqualTo(firstRun);
		assertThat(reset.out()).contains(newRun);
		assertThat(status("reset-t")).isEqualTo("RUNNING");
		assertThat(ok("-o", "json", "describe", "reset-t", "--run-id", firstRun).json().path("status").asString())
			.isEqualTo("TERMINATED");
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(ok("-o", "json", "query", "reset-t", "notes").json().toString())
				.isEqualTo("[\"a\",\"b\"]"));

		Run missing = cli("reset", "reset-t");
		assertThat(missing.exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(missing.err()).contains("--event-id");
	}

	@Test
	void batchOperationsStartListAndDescribe() {
		ticket("batch-t-1");
		ticket("batch-t-2");
		Run started = ok("batch", "start", "terminate", "--id", "cli-cleanup", "--type", "ticket", "--prefix",
				"batch-t-", "--status", "RUNNING", "--reason", "cleanup");
		assertThat(started.out()).contains("Batch ID:", "cli-cleanup", "Operation:", "TERMINATE");
		await().atMost(WAIT)
			.until(() -> ok("-o", "json", "batch", "describe", "cli-cleanup").json().path("state").asString(),
					"COMPLETED"::equals);
		JsonNode batch = ok("-o", "json", "batch", "describe", "cli-cleanup").json();
		assertThat(batch.path("total").asInt()).isEqualTo(2);
		assertThat(batch.path("succeeded").asInt()).isEqualTo(2);
		assertThat(batch.path("reason").asString()).isEqualTo("cleanup");
		assertThat(status("batch-t-1")).isEqualTo("TERMINATED");
		assertThat(status("batch-t-2")).isEqualTo("TERMINATED");
		assertThat(ok("batch", "describe", "cli-cleanup").out()).contains("State:", "COMPLETED", "Succeeded:");

		ticket("batch-s-1");
		ok("batch", "start", "signal", "--id", "cli-notes", "--prefix", "batch-s-", "--signal", "addNote", "--payload",
				"\"from a batch\"");
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(ok("-o", "json", "query", "batch-s-1", "notes").json().toString())
				.isEqualTo("[\"from a batch\"]"));

		assertThat(ok("batch", "list").out()).startsWith("BATCH ID").contains("cli-cleanup", "cli-notes");
		List<String> listed = new ArrayList<>();
		ok("-o", "json", "batch", "list", "--limit", "10").json()
			.forEach((b) -> listed.add(b.path("batchId").asString()));
		assertThat(listed).contains("cli-cleanup", "cli-notes");

		Run everything = cli("batch", "start", "cancel");
		assertThat(everything.exitCode()).as("%s", everything).isEqualTo(ExitCode.REJECTED);
		assertThat(everything.err()).contains("EMPTY_FILTER");
		assertThat(cli("batch", "describe", "no-such-batch").exitCode()).isEqualTo(ExitCode.NOT_FOUND);
		assertThat(cli("batch", "start", "explode", "--prefix", "x").exitCode()).isEqualTo(ExitCode.USAGE);
	}

	@Test
	void schedulesListDescribePauseTriggerBackfillAndDelete() {
		String schedule = "{\"spec\":{\"cronExpressions\":[\"0 0 3 * * *\"]},\"action\":{\"workflowType\":\"ticket\","
				+ "\"input\":{\"title\":\"nightly\",\"priority\":3},\"workflowIdPrefix\":\"sched-ticket\"},"
				+ "\"overlapPolicy\":\"ALLOW_ALL\"}";
		assertThat(ok("schedules", "create", "cli-nightly", schedule).out()).contains("Created schedule cli-nightly");
		assertThat(cli("schedules", "create", "cli-nightly", schedule).exitCode()).isEqualTo(ExitCode.REJECTED);

		assertThat(ok("schedules", "list").out()).startsWith("SCHEDULE ID").contains("cli-nightly", "ticket");
		Run described = ok("schedules", "describe", "cli-nightly");
		assertThat(described.out()).contains("Schedule ID:", "cli-nightly", "Overlap policy:", "ALLOW_ALL",
				"Remaining actions:", "unlimited", "Next action times:");

		assertThat(ok("schedules", "pause", "cli-nightly", "--note", "maintenance").out()).contains("Paused:", "true",
				"maintenance");
		JsonNode paused = ok("-o", "json", "schedules", "describe", "cli-nightly").json();
		assertThat(paused.path("schedule").path("paused").asBoolean()).isTrue();
		assertThat(paused.path("schedule").path("note").asString()).isEqualTo("maintenance");
		JsonNode unpaused = ok("-o", "json", "schedules", "unpause", "cli-nightly").json();
		assertThat(unpaused.path("schedule").path("paused").asBoolean()).isFalse();

		Run triggered = ok("schedules", "trigger", "cli-nightly");
		assertThat(triggered.out()).contains("TRIGGERED", "STARTED", "sched-ticket-");
		JsonNode backfilled = ok("-o", "json", "schedules", "backfill", "cli-nightly", "--start",
				"2026-01-01T00:00:00Z", "--end", "2026-01-03T00:00:00Z", "--overlap", "allow-all")
			.json();
		assertThat(backfilled.size()).isEqualTo(2);
		assertThat(backfilled.get(0).path("workflowId").asString()).isEqualTo("sched-ticket-2026-01-01T03:00:00Z");
		assertThat(backfilled.get(1).path("outcome").asString()).isEqualTo("STARTED");
		assertThat(status("sched-ticket-2026-01-02T03:00:00Z")).isEqualTo("RUNNING");
		assertThat(cli("schedules", "backfill", "cli-nightly", "--start", "2026-01-01T00:00:00Z").exitCode())
			.isEqualTo(ExitCode.USAGE);

		assertThat(ok("schedules", "delete", "cli-nightly").out()).contains("Deleted schedule cli-nightly");
		Run gone = cli("schedules", "describe", "cli-nightly");
		assertThat(gone.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
		assertThat(gone.err()).contains("SCHEDULE_NOT_FOUND");
	}

	@Test
	void exitCodesOfNotFoundAndRefusedRequests() {
		Run missing = cli("describe", "no-such-ticket");
		assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
		assertThat(missing.out()).isEmpty();
		assertThat(missing.err()).contains("durable: ", "no-such-ticket", "WORKFLOW_NOT_FOUND", "HTTP 404");
		Run missingJson = cli("-o", "json", "history", "no-such-ticket");
		assertThat(missingJson.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
		assertThat(missingJson.json().path("code").asString()).isEqualTo("WORKFLOW_NOT_FOUND");
		assertThat(missingJson.json().path("status").asInt()).isEqualTo(404);

		ticket("codes-t");
		assertThat(cli("query", "codes-t", "noSuchQuery").exitCode()).isEqualTo(ExitCode.NOT_FOUND);
		Run rejected = cli("update", "codes-t", "setPriority", "0");
		assertThat(rejected.exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(rejected.err()).contains("UPDATE_REJECTED", "priority must be positive, was 0");
		Run negative = cli("update", "codes-t", "setPriority", "-3");
		assertThat(negative.exitCode()).as("%s", negative).isEqualTo(ExitCode.REJECTED);
		assertThat(negative.err()).contains("priority must be positive, was -3");
		Run duplicate = cli("start", "ticket", "--id", "codes-t", "--input", "{\"title\":\"x\",\"priority\":1}");
		assertThat(duplicate.exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(duplicate.err()).contains("WORKFLOW_ALREADY_STARTED");
		assertThat(cli("start", "no-such-type").exitCode()).isEqualTo(ExitCode.REJECTED);
		assertThat(cli("signal", "codes-t", "addNote", "42").err()).contains("INVALID_PAYLOAD");
	}

	@Test
	void exitCodeTwoForABadCommandLine() {
		assertThat(cli().exitCode()).isEqualTo(ExitCode.USAGE);
		assertThat(cli().err()).contains("Usage: durable");
		for (String[] args : List.of(new String[] { "frobnicate" }, new String[] { "describe" },
				new String[] { "list", "--colour", "red" }, new String[] { "list", "--page-size", "many" },
				new String[] { "signal", "codes-t", "addNote", "not json" }, new String[] { "-o", "yaml", "list" },
				new String[] { "history", "x", "--interval", "2s" }, new String[] { "describe", "a", "b" },
				new String[] { "schedules", "frobnicate" }, new String[] { "list", "--type" },
				new String[] { "--url", "ftp://example", "list" })) {
			Run run = cli(args);
			assertThat(run.exitCode()).as("%s: %s", List.of(args), run).isEqualTo(ExitCode.USAGE);
			assertThat(run.err()).startsWith("durable: ").contains("durable --help");
		}
		Run help = cli("--help");
		assertThat(help.exitCode()).isZero();
		assertThat(help.out()).contains("Usage: durable", "history", "--follow", "schedules backfill", "Exit codes");
	}

	@Test
	void exitCodeFiveWhenNoServerAnswers() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		Run refused = cli(Map.of(), "--url", "http://127.0.0.1:" + closedPort, "list");
		assertThat(refused.exitCode()).as("%s", refused).isEqualTo(ExitCode.UNAVAILABLE);
		assertThat(refused.err())
			.contains("Cannot reach http://127.0.0.1:" + closedPort + "/durable: connection refused");
		Run unknownHost = cli(Map.of("DURABLE_URL", "http://no-such-host.invalid:8080"), "list");
		assertThat(unknownHost.exitCode()).as("%s", unknownHost).isEqualTo(ExitCode.UNAVAILABLE);
		assertThat(unknownHost.err()).contains("unknown host");
	}

}
