package dev.durable.quickstart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files of the README's quick start: every fenced code block preceded by a
 * {@code <!-- quickstart:file PATH -->} comment is the content of the file at PATH, as a
 * reader would copy it.
 */
final class ReadmeSnippets {

	private static final Pattern SNIPPET = Pattern
		.compile("<!-- quickstart:file (\\S+) -->\\s*\\n```[a-z]*\\n(.*?)\\n```", Pattern.DOTALL);

	private ReadmeSnippets() {
	}

	/** The files by relative path, in README order. */
	static Map<String, String> read(Path readme) throws IOException {
		Map<String, String> files = new LinkedHashMap<>();
		Matcher matcher = SNIPPET.matcher(Files.readString(readme));
		while (matcher.find()) {
			if (files.put(matcher.group(1), matcher.group(2) + "\n") != null) {
				throw new IllegalStateException("Two quick-start snippets for " + matcher.group(1));
			}
		}
		return files;
	}

}
