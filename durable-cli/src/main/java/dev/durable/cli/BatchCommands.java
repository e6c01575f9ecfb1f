package dev.durable.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code batch start|list|describe|cancel}: batch operations, a cancel, terminate, signal
 * or reset of every run a filter matches, tracked by the server ({@code /batches}).
 */
final class BatchCommands {

	private static final List<String> OPERATIONS = List.of("cancel", "terminate", "signal", "reset", "pause",
			"unpause");

	private BatchCommands() {
	}

	static void run(Invocation call) {
		String action = call.line().required(1, "batch command: start, list, describe or cancel");
		switch (action) {
			case "start" -> start(call);
			case "list" -> list(call);
			case "describe" -> show(call, false);
			case "cancel" -> show(call, true);
			default -> throw CliException
				.usage("Unknown batch command '" + action + "'; the batch commands are start, list, describe, cancel");
		}
	}

	private static void start(Invocation call) {
		CommandLine line = call.line()
			.allowOnly("id", "type", "status", "query", "prefix", "started-from", "started-to", "paused", "reason",
					"signal", "payload", "reset-to", "confirm-all", "page-size")
			.atMost(3);
		String operation = line.required(2, "batch operation: " + String.join(", ", OPERATIONS))
			.toLowerCase(Locale.ROOT);
		if (!OPERATIONS.contains(operation)) {
			throw CliException.usage("Unknown batch operation '" + operation + "'; one of " + OPERATIONS);
		}
		ObjectNode body = call.object();
		if (line.option("id") != null) {
			body.put("batchId", line.option("id"));
		}
		body.put("operation", operation.toUpperCase(Locale.ROOT));
		ObjectNode filter = body.putObject("filter");
		putIfSet(filter, "type", line.option("type"));
		if (!line.options("status").isEmpty()) {
			line.options("status").forEach(filter.putArray("status")::add);
		}
		putIfSet(filter, "query", line.option("query"));
		putIfSet(filter, "workflowIdPrefix", line.option("prefix"));
		putIfSet(filter, "startedFrom", line.option("started-from"));
		putIfSet(filter, "startedTo", line.option("started-to"));
		if (line.flag("paused")) {
			filter.put("paused", true);
		}
		putIfSet(body, "reason", line.option("reason"));
		if (line.option("signal") != null) {
			ObjectNode signal = body.putObject("signal");
			signal.put("name", line.option("signal"));
			JsonNode payload = call.json(line.option("payload"), "--payload");
			if (payload != null) {
				signal.putArray("args").add(payload);
			}
		}
		if (line.option("reset-to") != null) {
			body.put("resetTo", resetPoint(line.option("reset-to")));
		}
		if (line.flag("confirm-all")) {
			body.put("confirmAll", true);
		}
		if (line.number("page-size") != null) {
			body.put("pageSize", line.number("page-size").intValue());
		}
		print(call, call.api().post("/batches", body));
	}

	private static String resetPoint(String given) {
		return switch (given.strip().toLowerCase(Locale.ROOT)) {
			case "first", "first_workflow_task" -> "FIRST_WORKFLOW_TASK";
			case "last", "last_workflow_task" -> "LAST_WORKFLOW_TASK";
			default -> throw CliException.usage("--reset-to must be first or last, not '" + given + "'");
		};
	}

	private static void list(Invocation call) {
		CommandLine line = call.line().allowOnly("limit").atMost(2);
		JsonNode batches = call.api().get("/batches" + DurableApi.query("limit", line.number("limit")));
		call.out()
			.listing(batches,
					new String[] { "BATCH ID", "OPERATION", "STATE", "TOTAL", "PROCESSED", "SUCCEEDED", "SKIPPED",
							"FAILED", "CREATED" },
					new String[] { "batchId", "operation", "state", "total", "processed", "succeeded", "skipped",
							"failed", "createdAt" });
	}

	private static void show(Invocation call, boolean cancel) {
		CommandLine line = call.line().allowOnly().atMost(3);
		String path = "/batches/" + DurableApi.segment(line.required(2, "batch id"));
		print(call, cancel ? call.api().post(path + "/cancel", null) : call.api().get(path));
	}

	private static void print(Invocation call, JsonNode batch) {
		if (call.out().isJson()) {
			call.out().json(batch);
			return;
		}
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("Batch ID", Output.text(batch.path("batchId")));
		fields.put("Operation", Output.text(batch.path("operation")));
		fields.put("State", Output.text(batch.path("state")));
		fields.put("Filter", Output.text(batch.path("filter")));
		fields.put("Reason", Output.text(batch.path("reason")));
		for (String count : new String[] { "total", "processed", "succeeded", "skipped", "failed" }) {
			fields.put(Character.toUpperCase(count.charAt(0)) + count.substring(1), Output.text(batch.path(count)));
		}
		fields.put("Created", Output.text(batch.path("createdAt")));
		fields.put("Closed", Output.text(batch.path("closedAt")));
		for (JsonNode failure : batch.path("recentFailures")) {
			fields.put("Failed " + Output.text(failure.path("workflowId")), Output.text(failure.path("message")));
		}
		call.out().fields(fields);
	}

	private static void putIfSet(ObjectNode node, String field, @Nullable String value) {
		if (value != null) {
			node.put(field, value);
		}
	}

}
