package dev.durable.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a command prints on standard output: a table or {@code key: value} lines for a
 * person (the default), or the server's JSON for a script ({@code --output json}).
 */
final class Output {

	/** The two formats. */
	enum Format {

		TABLE, JSON;

		static Format of(String name) {
			try {
				return valueOf(name.strip().toUpperCase(Locale.ROOT));
			}
			catch (IllegalArgumentException ex) {
				throw CliException.usage("--output must be table or json, not '" + name + "'");
			}
		}

	}

	/**
	 * Longest cell of a table column before it is cut (the JSON output has the whole
	 * value).
	 */
	private static final int MAX_CELL = 80;

	private final PrintStream out;

	private final Format format;

	private final JsonMapper json;

	Output(PrintStream out, Format format, JsonMapper json) {
		this.out = out;
		this.format = format;
		this.json = json;
	}

	boolean isJson() {
		return this.format == Format.JSON;
	}

	JsonMapper mapper() {
		return this.json;
	}

	/** A JSON value, indented. */
	void json(JsonNode value) {
		this.out.println(this.json.writerWithDefaultPrettyPrinter().writeValueAsString(value));
	}

	/** A JSON value on one line (a stream of them is JSON Lines). */
	void jsonLine(JsonNode value) {
		this.out.println(this.json.writeValueAsString(value));
		this.out.flush();
	}

	void line(String text) {
		this.out.println(text);
		this.out.flush();
	}

	/** {@code key: value} lines, the keys aligned. */
	void fields(Map<String, String> fields) {
		int width = fields.keySet().stream().mapToInt(String::length).max().orElse(0);
		fields.forEach((key, value) -> this.out.println((pad(key + ":", width + 1) + " " + value).stripTrailing()));
		this.out.flush();
	}

	/** {@code key: value} lines of alternating keys and values. */
	void fields(String... keysAndValues) {
		Map<String, String> fields = new java.util.LinkedHashMap<>();
		for (int i = 0; i < keysAndValues.length; i += 2) {
			fields.put(keysAndValues[i], keysAndValues[i + 1]);
		}
		fields(fields);
	}

	/** A table: a header row and the rows, columns aligned. */
	void table(List<String> headers, List<List<String>> rows) {
		int[] widths = new int[headers.size()];
		List<List<String>> all = new ArrayList<>();
		all.add(headers);
		for (List<String> row : rows) {
			all.add(row.stream().map(Output::cut).toList());
		}
		for (List<String> row : all) {
			for (int i = 0; i < widths.length; i++) {
				widths[i] = Math.max(widths[i], row.get(i).length());
			}
		}
		for (List<String> row : all) {
			StringBuilder line = new StringBuilder();
			for (int i = 0; i < widths.length; i++) {
				line.append((i < widths.length - 1) ? pad(row.get(i), widths[i] + 2) : row.get(i));
			}
			this.out.println(line.toString().stripTrailing());
		}
		this.out.flush();
	}

	/**
	 * The value as JSON in JSON mode, else its nodes as a table (see
	 * {@link #table(JsonNode, String[], String[])}).
	 */
	void listing(JsonNode array, String[] headers, String[] fields) {
		if (isJson()) {
			json(array);
			return;
		}
		table(array, headers, fields);
	}

	/** Each of the nodes of an array as a row of the named fields' text. */
	void table(JsonNode array, String[] headers, String[] fields) {
		List<List<String>> rows = new ArrayList<>();
		for (JsonNode item : array) {
			rows.add(Arrays.stream(fields).map((field) -> text(item.path(field))).toList());
		}
		table(List.of(headers), rows);
	}

	/**
	 * A JSON value as text: a string as it is, nothing for null or absent, an array of
	 * plain values as those values joined by commas, anything else as compact JSON.
	 */
	static String text(JsonNode node) {
		if (node.isMissingNode() || node.isNull()) {
			return "";
		}
		if (node.isString()) {
			return node.stringValue();
		}
		if (node.isArray() && node.valueStream().allMatch(JsonNode::isValueNode)) {
			return String.join(", ", node.valueStream().map(Output::text).toList());
		}
		return node.toString();
	}

	private static String cut(String cell) {
		String oneLine = cell.replace('\n', ' ').replace('\r', ' ');
		return (oneLine.length() <= MAX_CELL) ? oneLine : oneLine.substring(0, MAX_CELL - 3) + "...";
	}

	private static String pad(String text, int width) {
		return (text.length() >= width) ? text : text + " ".repeat(width - text.length());
	}

}
