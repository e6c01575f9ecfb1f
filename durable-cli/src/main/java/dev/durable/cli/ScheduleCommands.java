package dev.durable.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code schedules list|describe|create|pause|unpause|trigger|backfill|delete}
 * ({@code /schedules}). Pause and unpause take a {@code --note}; trigger and backfill an
 * {@code --overlap} policy for their firings.
 */
final class ScheduleCommands {

	private ScheduleCommands() {
	}

	static void run(Invocation call) {
		String action = call.line()
			.required(1, "schedules command: list, describe, create, pause, unpause, trigger, backfill or delete");
		switch (action) {
			case "list" -> list(call);
			case "describe" -> describe(call);
			case "create" -> create(call);
			case "pause", "unpause" -> pause(call, action);
			case "trigger" -> trigger(call);
			case "backfill" -> backfill(call);
			case "delete" -> delete(call);
			default -> throw CliException.usage("Unknown schedules command '" + action
					+ "'; the schedules commands are list, describe, create, pause, unpause, trigger, backfill, delete");
		}
	}

	private static void list(Invocation call) {
		call.line().allowOnly().atMost(2);
		JsonNode schedules = call.api().get("/schedules");
		call.out()
			.listing(schedules, new String[] { "SCHEDULE ID", "WORKFLOW TYPE", "PAUSED", "NEXT ACTION" },
					new String[] { "scheduleId", "workflowType", "paused", "nextActionTime" });
	}

	private static void describe(Invocation call) {
		CommandLine line = call.line().allowOnly().atMost(3);
		print(call, call.api().get(path(line)));
	}

	private static void create(Invocation call) {
		CommandLine line = call.line().allowOnly().atMost(4);
		String scheduleId = line.required(2, "schedule id");
		JsonNode schedule = call.json(line.required(3, "schedule JSON ({\"spec\", \"action\", ...})"), "The schedule");
		if (!(schedule instanceof ObjectNode object)) {
			throw CliException.usage("The schedule must be a JSON object: {\"spec\", \"action\", ...}");
		}
		ObjectNode body = call.object().put("scheduleId", scheduleId);
		body.setAll(object);
		call.api().post("/schedules", body);
		done(call, scheduleId, "create", "Created schedule ");
	}

	private static void pause(Invocation call, String action) {
		CommandLine line = call.line().allowOnly("note").atMost(3);
		ObjectNode body = call.object();
		body.put("note", line.option("note"));
		print(call, call.api().post(path(line) + "/" + action, body));
	}

	private static void trigger(Invocation call) {
		CommandLine line = call.line().allowOnly("overlap").atMost(3);
		JsonNode result = call.api().post(path(line) + "/trigger", firing(call, line));
		if (call.out().isJson()) {
			call.out().json(result);
			return;
		}
		call.out().table(call.object().arrayNode().add(result), ACTION_HEADERS, ACTION_FIELDS);
	}

	private static void backfill(Invocation call) {
		CommandLine line = call.line().allowOnly("overlap", "start", "end").atMost(3);
		if (line.option("start") == null || line.option("end") == null) {
			throw CliException.usage("backfill needs --start and --end (ISO-8601 instants, the end excluded)");
		}
		ObjectNode body = firing(call, line);
		body.put("start", line.option("start"));
		body.put("end", line.option("end"));
		JsonNode results = call.api().post(path(line) + "/backfill", body);
		call.out().listing(results, ACTION_HEADERS, ACTION_FIELDS);
	}

	private static void delete(Invocation call) {
		CommandLine line = call.line().allowOnly().atMost(3);
		call.api().send("DELETE", path(line), null, Map.of());
		done(call, line.required(2, "schedule id"), "delete", "Deleted schedule ");
	}

	private static final String[] ACTION_HEADERS = { "NOMINAL TIME", "ORIGIN", "OUTCOME", "WORKFLOW ID", "RUN ID",
			"REASON" };

	private static final String[] ACTION_FIELDS = { "nominalTime", "origin", "outcome", "workflowId", "runId",
			"reason" };

	private static String path(CommandLine line) {
		return "/schedules/" + DurableApi.segment(line.required(2, "schedule id"));
	}

	private static ObjectNode firing(Invocation call, CommandLine line) {
		ObjectNode body = call.object();
		String overlap = line.option("overlap");
		if (overlap != null) {
			body.put("overlapPolicy", overlap.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
		}
		return body;
	}

	private static void done(Invocation call, String scheduleId, String operation, String text) {
		if (call.out().isJson()) {
			call.out().json(call.object().put("scheduleId", scheduleId).put("operation", operation).put("done", true));
			return;
		}
		call.out().line(text + scheduleId);
	}

	private static void print(Invocation call, JsonNode description) {
		if (call.out().isJson()) {
			call.out().json(description);
			return;
		}
		JsonNode schedule = description.path("schedule");
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("Schedule ID", Output.text(description.path("scheduleId")));
		fields.put("Workflow type", Output.text(schedule.path("action").path("workflowType")));
		fields.put("Spec", Output.text(schedule.path("spec")));
		fields.put("Overlap policy", Output.text(schedule.path("overlapPolicy")));
		fields.put("Paused", Output.text(schedule.path("paused")));
		fields.put("Note", Output.text(schedule.path("note")));
		fields.put("Remaining actions", or(Output.text(schedule.path("remainingActions")), "unlimited"));
		fields.put("Next action times", Output.text(description.path("nextActionTimes")));
		fields.put("Running workflows", Output.text(description.path("runningWorkflowIds")));
		fields.put("Actions", Output.text(description.path("actionCount")));
		fields.put("Skipped", Output.text(description.path("skippedCount")));
		fields.put("Missed", Output.text(description.path("missedCount")));
		fields.put("Buffered", Output.text(description.path("bufferedCount")));
		fields.put("Created", Output.text(description.path("createdAt")));
		fields.put("Updated", Output.text(description.path("updatedAt")));
		call.out().fields(fields);
		JsonNode recent = description.path("recentActions");
		if (!recent.isEmpty()) {
			call.out().line("");
			call.out().table(recent, ACTION_HEADERS, ACTION_FIELDS);
		}
	}

	private static String or(@Nullable String value, String otherwise) {
		return (value == null || value.isEmpty()) ? otherwise : value;
	}

}
