package dev.durable.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code replay-check}: asks a node to replay runs on its workflow code and prints what
 * does not replay, with the first mismatch of each; exits {@link ExitCode#NOT_REPLAYABLE}
 * when anything does not. Without {@code --histories}, the node replays a sample of the
 * stored runs of each type ({@code GET /replay-check}); with it, the exported history
 * files of a directory ({@code durable history <id> -o json} wrote them), sent in
 * requests of at most {@value #BATCH_BYTES} bytes ({@code POST /replay-check}).
 */
final class ReplayCheckCommand {

	/** The most file bytes sent in one request. */
	private static final long BATCH_BYTES = 8L << 20;

	private ReplayCheckCommand() {
	}

	static void run(Invocation call) {
		CommandLine line = call.line().allowOnly("type", "sample-size", "open-only", "histories").atMost(1);
		String directory = line.option("histories");
		JsonNode report;
		if (directory != null) {
			if (!line.options("type").isEmpty() || line.option("sample-size") != null || line.flag("open-only")) {
				throw CliException.usage("--histories replays the files it names: it takes no --type, --sample-size"
						+ " or --open-only");
			}
			report = exported(call, Path.of(directory));
		}
		else {
			report = call.api()
				.get("/replay-check" + DurableApi.query("workflowType", line.options("type"), "sampleSize",
						line.number("sample-size"), "openRunsOnly", line.flag("open-only") ? "true" : null));
		}
		print(call, report);
		int failed = 0;
		int checked = 0;
		for (JsonNode type : report.path("types")) {
			failed += type.path("failures").size();
			checked += type.path("checked").asInt();
		}
		if (failed > 0) {
			throw new CliException(ExitCode.NOT_REPLAYABLE,
					failed + " of " + checked + " histories do not replay on the node's code", null, null);
		}
	}

	/** Sends the directory's history files in batches and merges the reports. */
	private static JsonNode exported(Invocation call, Path directory) {
		List<Path> files;
		try (Stream<Path> listing = Files.list(directory)) {
			files = listing.filter((f) -> f.getFileName().toString().endsWith(".json")).sorted().toList();
		}
		catch (IOException ex) {
			throw CliException.usage("Cannot list " + directory + ": " + ex.getMessage());
		}
		if (files.isEmpty()) {
			throw CliException.usage("No .json history files in " + directory);
		}
		Map<String, ObjectNode> types = new LinkedHashMap<>();
		ObjectNode batch = call.object();
		long bytes = 0;
		for (Path file : files) {
			byte[] content = read(file);
			JsonNode history = parse(call, file, content);
			long size = content.length;
			if (!batch.isEmpty() && bytes + size > BATCH_BYTES) {
				merge(types, call.api().post("/replay-check", batch));
				batch = call.object();
				bytes = 0;
			}
			batch.set(file.getFileName().toString(), history);
			bytes += size;
		}
		merge(types, call.api().post("/replay-check", batch));
		ObjectNode report = call.object();
		ArrayNode list = report.putArray("types");
		types.values().forEach(list::add);
		return report;
	}

	private static byte[] read(Path file) {
		try {
			return Files.readAllBytes(file);
		}
		catch (IOException ex) {
			throw CliException.usage("Cannot read " + file + ": " + ex.getMessage());
		}
	}

	private static JsonNode parse(Invocation call, Path file, byte[] content) {
		try {
			return call.out().mapper().readTree(content);
		}
		catch (JacksonException ex) {
			throw CliException.usage("History file " + file + " is not JSON");
		}
	}

	private static void merge(Map<String, ObjectNode> types, JsonNode report) {
		for (JsonNode type : report.path("types")) {
			String name = Output.text(type.path("workflowType"));
			ObjectNode merged = types.get(name);
			if (merged == null) {
				types.put(name, (ObjectNode) type.deepCopy());
				continue;
			}
			merged.put("checked", merged.path("checked").asInt() + type.path("checked").asInt());
			ArrayNode failures = (ArrayNode) merged.get("failures");
			type.path("failures").forEach(failures::add);
		}
	}

	private static void print(Invocation call, JsonNode report) {
		if (call.out().isJson()) {
			call.out().json(report);
			return;
		}
		call.out()
			.table(report.path("types"), new String[] { "TYPE", "CHECKED" },
					new String[] { "workflowType", "checked" });
		List<List<String>> rows = new ArrayList<>();
		for (JsonNode type : report.path("types")) {
			for (JsonNode failure : type.path("failures")) {
				rows.add(List.of(Output.text(failure.path("workflowType")), Output.text(failure.path("workflowId")),
						Output.text(failure.path("kind")), Output.text(failure.path("workflowTask")),
						Output.text(failure.path("message"))));
			}
		}
		call.out().line("");
		if (rows.isEmpty()) {
			call.out().line("Every history replays on the node's code.");
			return;
		}
		call.out().table(List.of("TYPE", "WORKFLOW ID", "KIND", "TASK", "FIRST MISMATCH"), rows);
	}

}
