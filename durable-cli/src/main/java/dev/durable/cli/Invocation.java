package dev.durable.cli;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One run of a command: its command line, the API it talks to and where it prints.
 *
 * @param line the command line
 * @param api the application's REST API
 * @param out standard output
 */
record Invocation(CommandLine line, DurableApi api, Output out) {

	/**
	 * A JSON argument (a payload, options); not JSON, a usage error saying how to quote a
	 * string.
	 */
	@Nullable JsonNode json(@Nullable String text, String what) {
		if (text == null) {
			return null;
		}
		try {
			return this.out.mapper().readTree(text);
		}
		catch (JacksonException ex) {
			throw CliException.usage(what + " must be JSON (a string in double quotes, e.g. '\"text\"'), not " + text);
		}
	}

	/** An empty JSON object to fill as a request body. */
	ObjectNode object() {
		return this.out.mapper().createObjectNode();
	}

	/** The path of a workflow id under {@code /workflows}. */
	static String workflow(String workflowId) {
		return "/workflows/" + DurableApi.segment(workflowId);
	}

}
