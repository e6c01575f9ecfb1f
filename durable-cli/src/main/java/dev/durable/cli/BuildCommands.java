package dev.durable.cli;

import tools.jackson.databind.JsonNode;

/**
 * {@code builds list|current|ramp|move} ({@code /builds}) and {@code move-build}
 * ({@code /workflows/{id}/move-build}): where new runs go, each build's drain status, and
 * moves of pinned runs to the build of the node the command talks to.
 */
final class BuildCommands {

	private static final String[] HEADERS = { "BUILD", "STATE", "RAMP %", "LIVE NODES", "PINNED RUNS", "STRANDED",
			"REFUSED MOVES", "LAST TASK" };

	private static final String[] FIELDS = { "buildId", "state", "rampingPercent", "liveNodes", "openPinnedRuns",
			"strandedRuns", "refusedMoves", "lastTaskAt" };

	private BuildCommands() {
	}

	static void run(Invocation call) {
		String action = call.line().positional(1);
		switch ((action != null) ? action : "list") {
			case "list" -> list(call);
			case "current" -> current(call);
			case "ramp" -> ramp(call);
			case "move" -> move(call);
			default -> throw CliException
				.usage("Unknown builds command '" + action + "'; the builds commands are list, current, ramp, move");
		}
	}

	private static void list(Invocation call) {
		call.line().allowOnly().atMost(2);
		JsonNode builds = call.api().get("/builds");
		if (call.out().isJson()) {
			call.out().json(builds);
			return;
		}
		routing(call, builds.path("routing"));
		call.out().table(builds.path("builds"), HEADERS, FIELDS);
	}

	private static void routing(Invocation call, JsonNode routing) {
		String current = Output.text(routing.path("currentBuild"));
		String ramping = Output.text(routing.path("rampingBuild"));
		call.out()
			.fields("Current build",
					(current.isEmpty() ? "none" : current)
							+ (routing.path("chosen").asBoolean() ? " (chosen)" : " (newest with a live node)"),
					"Ramping build", ramping.isEmpty() ? "none"
							: ramping + " (" + Output.text(routing.path("rampingPercent")) + "% of new runs)");
	}

	private static void current(Invocation call) {
		CommandLine line = call.line().allowOnly("newest").atMost(3);
		String build = line.positional(2);
		if ((build == null) == !line.flag("newest")) {
			throw CliException
				.usage("builds current needs a build id, or --newest for the newest build with a" + " live node");
		}
		answer(call, call.api().put("/builds/current" + DurableApi.query("buildId", build)));
	}

	private static void ramp(Invocation call) {
		CommandLine line = call.line().allowOnly("percent", "off").atMost(3);
		String build = line.positional(2);
		Integer percent = line.number("percent");
		if (line.flag("off") ? (build != null || percent != null) : (build == null || percent == null)) {
			throw CliException.usage("builds ramp needs a build id and --percent N (0-100), or --off");
		}
		answer(call, call.api().put("/builds/ramping" + DurableApi.query("buildId", build, "percent", percent)));
	}

	private static void answer(Invocation call, JsonNode routing) {
		if (call.out().isJson()) {
			call.out().json(routing);
			return;
		}
		routing(call, routing);
	}

	private static void move(Invocation call) {
		CommandLine line = call.line().allowOnly("to", "type", "limit").atMost(3);
		String from = line.required(2, "the build the runs are pinned to");
		report(call,
				call.api()
					.post("/builds/" + DurableApi.segment(from) + "/move" + DurableApi.query("toBuild", to(line),
							"workflowType", line.option("type"), "limit", line.number("limit")), null));
	}

	static void moveRun(Invocation call) {
		CommandLine line = call.line().allowOnly("to", "run-id").atMost(2);
		String workflowId = line.required(1, "workflow id");
		report(call,
				call.api()
					.post(Invocation.workflow(workflowId) + "/move-build"
							+ DurableApi.query("toBuild", to(line), "runId", line.option("run-id")), null));
	}

	private static String to(CommandLine line) {
		String to = line.option("to");
		if (to == null) {
			throw CliException.usage("--to BUILD is needed: the build of the node the command talks to");
		}
		return to;
	}

	private static void report(Invocation call, JsonNode report) {
		if (call.out().isJson()) {
			call.out().json(report);
			return;
		}
		for (JsonNode moved : report.path("moved")) {
			call.out()
				.line("Moved " + Output.text(moved.path("workflowId")) + " (run " + Output.text(moved.path("runId"))
						+ ") from build " + Output.text(moved.path("fromBuild")) + " to build "
						+ Output.text(report.path("toBuild")));
		}
		for (JsonNode refused : report.path("refused")) {
			call.out()
				.line("Refused " + Output.text(refused.path("workflowId")) + " (run "
						+ Output.text(refused.path("runId")) + "): " + Output.text(refused.path("reason")));
		}
		if (report.path("moved").isEmpty() && report.path("refused").isEmpty()) {
			call.out().line("No run to move");
		}
		if (!report.path("refused").isEmpty()) {
			throw new CliException(ExitCode.NOT_REPLAYABLE, report.path("refused").size() + " run(s) do not replay on"
					+ " build " + Output.text(report.path("toBuild")) + " and stay on their build", null, null);
		}
	}

}
