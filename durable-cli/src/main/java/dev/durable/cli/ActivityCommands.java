package dev.durable.cli;

import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code activity pause|unpause|reset|update-options <workflow-id> <activity-id>}
 * ({@code /workflows/{id}/activities/{activityId}}): operations on one pending activity
 * of a run, by its id as {@code describe} lists it under the pending activities.
 */
final class ActivityCommands {

	/** The options of update-options and the fields of the request they set. */
	private static final Map<String, String> TIMEOUTS = Map.of("start-to-close", "startToCloseTimeout",
			"schedule-to-close", "scheduleToCloseTimeout", "heartbeat-timeout", "heartbeatTimeout", "schedule-to-start",
			"scheduleToStartTimeout");

	private static final Map<String, String> POLICY = Map.of("initial-interval", "initialInterval", "maximum-interval",
			"maximumInterval");

	private ActivityCommands() {
	}

	static void run(Invocation call) {
		String action = call.line().required(1, "activity command: pause, unpause, reset or update-options");
		switch (action) {
			case "pause" -> pause(call);
			case "unpause" -> unpause(call);
			case "reset" -> reset(call);
			case "update-options" -> updateOptions(call);
			default -> throw CliException.usage("Unknown activity command '" + action
					+ "'; the activity commands are pause, unpause, reset, update-options");
		}
	}

	private static String path(CommandLine line, String operation) {
		String workflowId = line.required(2, "workflow id");
		String activityId = line.required(3, "activity id (see describe: Pending activities)");
		if (!activityId.matches("[0-9]{1,18}")) {
			throw CliException.usage("The activity id must be a whole number, not '" + activityId + "'");
		}
		return Invocation.workflow(workflowId) + "/activities/" + activityId + "/" + operation
				+ DurableApi.query("runId", line.option("run-id"));
	}

	private static void pause(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id", "reason").atMost(4);
		ObjectNode body = call.object();
		body.put("reason", line.option("reason"));
		pauseState(call, call.api().post(path(line, "pause"), body), "Paused ", " was paused already");
	}

	private static void unpause(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id").atMost(4);
		pauseState(call, call.api().post(path(line, "unpause"), null), "Unpaused ", " was not paused");
	}

	private static void pauseState(Invocation call, JsonNode state, String changed, String unchanged) {
		if (call.out().isJson()) {
			call.out().json(state);
			return;
		}
		String activity = "activity " + Output.text(state.path("activityId")) + " of "
				+ Output.text(state.path("workflowId")) + " (run " + Output.text(state.path("runId")) + ")";
		call.out().line(state.path("changed").asBoolean() ? changed + activity : activity + unchanged);
	}

	private static void reset(Invocation call) {
		CommandLine line = call.line().allowOnly("run-id", "drop-heartbeat-details").atMost(4);
		ObjectNode body = call.object();
		body.put("keepHeartbeatDetails", !line.flag("drop-heartbeat-details"));
		JsonNode reset = call.api().post(path(line, "reset"), body);
		if (call.out().isJson()) {
			call.out().json(reset);
			return;
		}
		call.out()
			.line("Reset activity " + Output.text(reset.path("activityId")) + " of "
					+ Output.text(reset.path("workflowId")) + ": its next attempt is attempt 1"
					+ (reset.path("keepHeartbeatDetails").asBoolean() ? "" : ", without its heartbeat details"));
	}

	private static void updateOptions(Invocation call) {
		CommandLine line = call.line()
			.allowOnly("run-id", "start-to-close", "schedule-to-close", "heartbeat-timeout", "schedule-to-start",
					"max-attempts", "initial-interval", "maximum-interval", "backoff-coefficient",
					"pause-when-exhausted")
			.atMost(4);
		ObjectNode body = call.object();
		TIMEOUTS.forEach((option, field) -> {
			if (line.option(option) != null) {
				body.put(field, line.option(option));
			}
		});
		ObjectNode policy = call.object();
		POLICY.forEach((option, field) -> {
			if (line.option(option) != null) {
				policy.put(field, line.option(option));
			}
		});
		Integer attempts = line.number("max-attempts");
		if (attempts != null) {
			policy.put("maximumAttempts", attempts.intValue());
		}
		String coefficient = line.option("backoff-coefficient");
		if (coefficient != null) {
			try {
				policy.put("backoffCoefficient", Double.parseDouble(coefficient.strip()));
			}
			catch (NumberFormatException ex) {
				throw CliException.usage("--backoff-coefficient must be a number, not '" + coefficient + "'");
			}
		}
		String pause = line.option("pause-when-exhausted");
		if (pause != null) {
			if (!pause.equals("true") && !pause.equals("false")) {
				throw CliException.usage("--pause-when-exhausted must be true or false, not '" + pause + "'");
			}
			policy.put("pauseWhenExhausted", Boolean.parseBoolean(pause));
		}
		if (!policy.isEmpty()) {
			body.set("retryPolicy", policy);
		}
		if (body.isEmpty()) {
			throw CliException.usage("update-options needs an option to change: --start-to-close, --schedule-to-close,"
					+ " --heartbeat-timeout, --schedule-to-start, --max-attempts, --initial-interval,"
					+ " --maximum-interval, --backoff-coefficient or --pause-when-exhausted");
		}
		JsonNode updated = call.api().post(path(line, "options"), body);
		if (call.out().isJson()) {
			call.out().json(updated);
			return;
		}
		call.out()
			.line("Updated the options of activity " + Output.text(updated.path("activityId")) + " of "
					+ Output.text(updated.path("workflowId")) + ": " + updated.path("options"));
	}

}
