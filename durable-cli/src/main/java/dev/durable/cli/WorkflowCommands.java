package dev.durable.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The commands on runs: {@code types}, {@code list}, {@code describe}, {@code start},
 * {@code result}, {@code cancel}, {@code terminate} and {@code reset}. ({@code history}
 * is {@link HistoryCommand}; signals, queries and updates are {@link MessageCommands}.)
 */
final class WorkflowCommands {

	private WorkflowCommands() {
	}

	static void types(Invocation call) {
		call.line().allowOnly().atMost(1);
		JsonNode types = call.api().get("/workflow-types");
		call.out()
			.listing(types, new String[] { "TYPE", "SIGNALS", "QUERIES", "UPDATES" },
					new String[] { "type", "signals", "queries", "updates" });
	}

	static void list(Invocation call) {
		CommandLine line = call.line()
			.allowOnly("type", "status", "query", "prefix", "started-from", "started-to", "paused", "page-size",
					"page-token")
			.atMost(1);
		JsonNode page = call.api()
			.get("/workflows" + DurableApi.query("type", line.option("type"), "status", line.options("status"), "query",
					line.option("query"), "workflowIdPrefix", line.option("prefix"), "startedFrom",
					line.option("started-from"), "startedTo", line.option("started-to"), "paused",
					line.flag("paused") ? "true" : null, "pageSize", line.number("page-size"), "pageToken",
					line.option("page-token")));
		if (call.out().isJson()) {
			call.out().json(page);
			return;
		}
		call.out()
			.table(page.path("executions"),
					new String[] { "WORKFLOW ID", "TYPE", "STATUS", "STARTED", "CLOSED", "RUN ID" },
					new String[] { "workflowId", "workflowType", "status", "startTime", "closeTime", "runId" });
		String next = Output.text(page.path("nextPageToken"));
		if (!next.isEmpty()) {
			call.out().line("");
			call.out().line("More: --page-token " + next);
		}
	}

	static void describe(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id").atMost(2);
		String workflowId = line.required(1, "workflow id");
		JsonNode run = call.api()
			.get(Invocation.workflow(workflowId) + DurableApi.query("runId", line.option("run-id")));
		if (call.out().isJson()) {
			call.out().json(run);
			return;
		}
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("Workflow ID", Output.text(run.path("workflowId")));
		fields.put("Run ID", Output.text(run.path("runId")));
		fields.put("Type", Output.text(run.path("workflowType")));
		fields.put("Task queue", Output.text(run.path("taskQueue")));
		fields.put("Status", Output.text(run.path("status")));
		if (!Output.text(run.path("summary")).isEmpty()) {
			fields.put("Summary", Output.text(run.path("summary")));
		}
		if (!Output.text(run.path("details")).isEmpty()) {
			fields.put("Details", Output.text(run.path("details")));
		}
		JsonNode build = run.path("build");
		if (!build.isMissingNode() && !build.isNull()) {
			String buildId = Output.text(build.path("buildId"));
			fields.put("Build", build.path("pinned").asBoolean() ? buildId + " (pinned)" : buildId);
			if (build.path("waitingForBuild").asBoolean()) {
				fields.put("Waiting for build", "no node of build " + buildId + " is live");
			}
			if (!Output.text(build.path("moveRefused")).isEmpty()) {
				fields.put("Move refused", Output.text(build.path("moveRefused")));
			}
		}
		if (!Output.text(run.path("pausedAt")).isEmpty()) {
			String reason = Output.text(run.path("pauseReason"));
			fields.put("Paused", Output.text(run.path("pausedAt")) + (reason.isEmpty() ? "" : " (" + reason + ")"));
		}
		fields.put("Started", Output.text(run.path("startTime")));
		fields.put("Closed", Output.text(run.path("closeTime")));
		fields.put("Workflow tasks", Output.text(run.path("workflowTasks")));
		if (!Output.text(run.path("taskFailure")).isEmpty()) {
			fields.put("Task failure", Output.text(run.path("taskFailure")));
			fields.put("Task attempts", Output.text(run.path("taskAttempts")));
		}
		fields.put("Pending activities", String.valueOf(run.path("pendingActivities").size()));
		for (JsonNode activity : run.path("pendingActivities")) {
			// keyed apart from the numbered waits below
			fields.put("  #" + Output.text(activity.path("activityId")), activityLine(activity));
		}
		fields.put("Unfinished handlers", Output.text(run.path("unfinishedHandlers")));
		fields.put("Memo", Output.text(run.path("memo")));
		fields.put("Search attributes", Output.text(run.path("searchAttributes")));
		String current = Output.text(call.api()
			.get(Invocation.workflow(workflowId) + "/current-details"
					+ DurableApi.query("runId", Output.text(run.path("runId"))))
			.path("currentDetails"));
		if (!current.isEmpty()) {
			fields.put("Current details", current);
		}
		if ("RUNNING".equals(Output.text(run.path("status")))) {
			JsonNode waits = call.api()
				.get(Invocation.workflow(workflowId) + "/waiting-on"
						+ DurableApi.query("runId", Output.text(run.path("runId"))));
			fields.put("Waiting on", waits.isEmpty() ? "nothing (a task is due)" : "");
			int n = 0;
			for (JsonNode wait : waits) {
				fields.put("  " + (++n), waitLine(wait));
			}
		}
		call.out().fields(fields);
	}

	/**
	 * A pending activity in words:
	 * {@code book STARTED, attempt 2, PAUSED (carrier strike), last failure: ...}, its
	 * options as JSON at the end.
	 */
	private static String activityLine(JsonNode activity) {
		StringBuilder line = new StringBuilder(Output.text(activity.path("activityType"))).append(' ')
			.append(Output.text(activity.path("state")))
			.append(", attempt ")
			.append(Output.text(activity.path("attempt")));
		if (!Output.text(activity.path("taskQueue")).isEmpty()) {
			line.append(", task queue ").append(Output.text(activity.path("taskQueue")));
		}
		line.append(", next attempt at ").append(Output.text(activity.path("nextAttemptTime")));
		if (!Output.text(activity.path("pausedTime")).isEmpty()) {
			String reason = Output.text(activity.path("pauseReason"));
			line.append(", PAUSED since ")
				.append(Output.text(activity.path("pausedTime")))
				.append(reason.isEmpty() ? "" : " (" + reason + ")");
		}
		if (!Output.text(activity.path("lastFailure")).isEmpty()) {
			line.append(", last failure: ").append(Output.text(activity.path("lastFailure")));
		}
		if (!activity.path("options").isMissingNode() && !activity.path("options").isNull()) {
			line.append(", options ").append(activity.path("options"));
		}
		return line.toString();
	}

	/** A wait in words: {@code ACTIVITY book, attempt 2 at 2026-..., carrier offline}. */
	private static String waitLine(JsonNode wait) {
		StringBuilder line = new StringBuilder(Output.text(wait.path("kind"))).append(' ')
			.append(Output.text(wait.path("name")));
		if (!Output.text(wait.path("attempt")).isEmpty()) {
			line.append(", attempt ").append(Output.text(wait.path("attempt")));
		}
		if (!Output.text(wait.path("until")).isEmpty()) {
			line.append(" at ").append(Output.text(wait.path("until")));
		}
		if (!Output.text(wait.path("location")).isEmpty()) {
			line.append(" at ").append(Output.text(wait.path("location")));
		}
		if (!Output.text(wait.path("detail")).isEmpty()) {
			line.append(": ").append(Output.text(wait.path("detail")));
		}
		return line.toString();
	}

	static void start(Invocation call) {
		CommandLine line = call.line()
			.allowOnly("id", "input", "options", "summary", "details", "idempotency-key", "signal", "signal-payload")
			.atMost(2);
		ObjectNode body = call.object();
		body.put("type", line.required(1, "workflow type"));
		if (line.option("id") != null) {
			body.put("workflowId", line.option("id"));
		}
		body.set("input", call.json(line.option("input"), "--input"));
		if (line.option("options") != null) {
			body.set("options", call.json(line.option("options"), "--options"));
		}
		for (String text : new String[] { "summary", "details" }) {
			if (line.option(text) == null) {
				continue;
			}
			JsonNode options = body.path("options");
			if (!options.isObject()) {
				if (!options.isMissingNode() && !options.isNull()) {
					throw CliException.usage("--options must be a JSON object to go with --" + text);
				}
				options = body.putObject("options");
			}
			((ObjectNode) options).put(text, line.option(text));
		}
		if (line.option("signal") != null) {
			ObjectNode signal = body.putObject("signal");
			signal.put("name", line.option("signal"));
			signal.set("payload", call.json(line.option("signal-payload"), "--signal-payload"));
		}
		else if (line.option("signal-payload") != null) {
			throw CliException.usage("--signal-payload goes with --signal NAME");
		}
		JsonNode started = call.api()
			.send("POST", "/workflows", body, DurableApi.headers("Idempotency-Key", line.option("idempotency-key")))
			.body();
		if (call.out().isJson()) {
			call.out().json(started);
			return;
		}
		call.out()
			.fields("Workflow ID", Output.text(started.path("workflowId")), "Run ID",
					Output.text(started.path("runId")));
	}

	static void result(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id", "wait").atMost(2);
		String workflowId = line.required(1, "workflow id");
		JsonNode result = call.api()
			.get(Invocation.workflow(workflowId) + "/result"
					+ DurableApi.query("runId", line.option("run-id"), "wait", line.option("wait")));
		if (call.out().isJson()) {
			call.out().json(result);
			return;
		}
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("Status", Output.text(result.path("status")));
		if (result.has("result")) {
			fields.put("Result", Output.text(result.path("result")));
		}
		if (result.has("failure")) {
			fields.put("Failure", Output.text(result.path("failure")));
		}
		call.out().fields(fields);
	}

	static void cancel(Invocation call) {
		close(call, "cancel", "Cancel requested for ");
	}

	static void terminate(Invocation call) {
		close(call, "terminate", "Terminated ");
	}

	private static void close(Invocation call, String operation, String done) {
		CommandLine line = call.line().allowOnly("run-id", "reason").atMost(2);
		String workflowId = line.required(1, "workflow id");
		ObjectNode body = call.object();
		body.put("reason", line.option("reason"));
		call.api()
			.post(Invocation.workflow(workflowId) + "/" + operation + DurableApi.query("runId", line.option("run-id")),
					body);
		if (call.out().isJson()) {
			call.out().json(call.object().put("workflowId", workflowId).put("operation", operation).put("done", true));
			return;
		}
		call.out().line(done + workflowId);
	}

	static void pause(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id", "reason").atMost(2);
		String workflowId = line.required(1, "workflow id");
		ObjectNode body = call.object();
		body.put("reason", line.option("reason"));
		pauseState(call, call.api()
			.post(Invocation.workflow(workflowId) + "/pause" + DurableApi.query("runId", line.option("run-id")), body),
				"Paused ", " was paused already");
	}

	static void unpause(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id").atMost(2);
		String workflowId = line.required(1, "workflow id");
		pauseState(call, call.api()
			.post(Invocation.workflow(workflowId) + "/unpause" + DurableApi.query("runId", line.option("run-id")),
					null),
				"Unpaused ", " was not paused");
	}

	private static void pauseState(Invocation call, JsonNode state, String changed, String unchanged) {
		if (call.out().isJson()) {
			call.out().json(state);
			return;
		}
		String run = Output.text(state.path("workflowId")) + " (run " + Output.text(state.path("runId")) + ")";
		call.out().line(state.path("changed").asBoolean() ? changed + run : run + unchanged);
	}

	static void reset(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id", "event-id", "reason").atMost(2);
		String workflowId = line.required(1, "workflow id");
		Integer eventId = line.number("event-id");
		if (eventId == null) {
			throw CliException
				.usage("reset needs --event-id N: an event of the workflow task to run again (see durable history)");
		}
		ObjectNode body = call.object();
		body.put("eventId", eventId.longValue());
		body.put("reason", line.option("reason"));
		JsonNode started = call.api()
			.post(Invocation.workflow(workflowId) + "/reset" + DurableApi.query("runId", line.option("run-id")), body);
		if (call.out().isJson()) {
			call.out().json(started);
			return;
		}
		call.out()
			.fields("Workflow ID", Output.text(started.path("workflowId")), "New run ID",
					Output.text(started.path("runId")));
	}

}
