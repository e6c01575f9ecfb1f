package dev.durable.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * The messages to a run: {@code signal}, {@code query} and {@code update}, each
 * {@code <workflow-id> <name> [payload-json]}. Without {@code --run-id} a message goes to
 * the latest run of the workflow id.
 */
final class MessageCommands {

	private MessageCommands() {
	}

	static void signal(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id", "idempotency-key").atMost(4);
		String workflowId = line.required(1, "workflow id");
		String name = line.required(2, "signal name");
		JsonNode payload = call.json(line.positional(3), "The payload");
		call.api()
			.send("POST", path(workflowId, "signals", name, line.option("run-id")), payload,
					DurableApi.headers("Idempotency-Key", line.option("idempotency-key")));
		if (call.out().isJson()) {
			call.out().json(call.object().put("workflowId", workflowId).put("signal", name).put("done", true));
			return;
		}
		call.out().line("Signaled " + workflowId + ": " + name);
	}

	static void query(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id").atMost(4);
		String workflowId = line.required(1, "workflow id");
		String name = line.required(2, "query name");
		JsonNode argument = call.json(line.positional(3), "The query argument");
		String path = path(workflowId, "queries", name, line.option("run-id"));
		JsonNode answer = (argument != null) ? call.api().post(path, argument) : call.api().get(path);
		if (call.out().isJson() || !answer.isString()) {
			call.out().json(answer);
			return;
		}
		call.out().line(answer.stringValue());
	}

	static void update(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id", "update-id", "wait-for").atMost(4);
		String workflowId = line.required(1, "workflow id");
		String name = line.required(2, "update name");
		JsonNode argument = call.json(line.positional(3), "The update argument");
		Map<String, @Nullable String> headers = DurableApi.headers("Update-Id", line.option("update-id"));
		String path = path(workflowId, "updates", name, null)
				+ DurableApi.query("runId", line.option("run-id"), "waitFor", line.option("wait-for"));
		JsonNode outcome = call.api().send("POST", path, argument, headers).body();
		if (call.out().isJson()) {
			call.out().json(outcome);
			return;
		}
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("Update ID", Output.text(outcome.path("updateId")));
		fields.put("Stage", Output.text(outcome.path("stage")));
		if (outcome.has("result")) {
			fields.put("Result", Output.text(outcome.path("result")));
		}
		call.out().fields(fields);
	}

	private static String path(String workflowId, String kind, String name, @Nullable String runId) {
		return Invocation.workflow(workflowId) + "/" + kind + "/" + DurableApi.segment(name)
				+ DurableApi.query("runId", runId);
	}

}
