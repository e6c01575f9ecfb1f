package dev.durable.workflow.web;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.autoconfigure.GeneratedPage;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * {@code docs/reference/rest-api.md} is generated from the application's OpenAPI document
 * (the generic endpoints; each workflow type's own signal, query and update operations
 * are the application's and left out), so the reference cannot drift from the
 * controllers: this test fails when the page differs, and rewrites it when run with
 * {@code -Ddurable.docs.write=true}.
 */
class RestApiReferenceTest extends RestApiTestSupport {

	private static final Path PAGE = Path.of("..", "docs", "reference", "rest-api.md");

	private static final List<String> METHODS = List.of("get", "post", "put", "delete");

	@Test
	void theReferencePageIsTheOneTheDocumentGives() throws Exception {
		JsonNode document = JsonMapper.builder()
			.build()
			.readTree(this.mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getContentAsString());
		String generated = page(document);
		GeneratedPage.check(PAGE, generated);
	}

	private static String page(JsonNode document) {
		StringBuilder page = new StringBuilder("""
				# REST API reference

				The generic endpoints under the base path (`durable.workflow.web.base-path`, default
				`/durable`), as the application's OpenAPI document describes them; each registered workflow
				type adds typed operations for its own signals, queries and updates. This page is generated
				from the document by `RestApiReferenceTest`; the [REST API guide](../rest-api.md) explains
				bodies, access rules and problems.

				| Method | Path | What it does | Answers | Problem codes |
				|---|---|---|---|---|
				""");
		List<String> paths = new ArrayList<>();
		document.path("paths").propertyNames().forEach(paths::add);
		// the document's order is the controllers' reflection order, not a stable one
		paths.sort(null);
		for (String path : paths) {
			if (!path.startsWith("/durable/") || typedHandler(path)) {
				continue;
			}
			JsonNode item = document.path("paths").path(path);
			for (String method : METHODS) {
				JsonNode operation = item.path(method);
				if (operation.isMissingNode()) {
					continue;
				}
				TreeSet<String> answers = new TreeSet<>();
				TreeSet<String> problems = new TreeSet<>();
				for (Map.Entry<String, JsonNode> response : operation.path("responses").properties()) {
					if (response.getKey().startsWith("2")) {
						answers.add(response.getKey());
					}
					else {
						for (String line : response.getValue().path("description").asString().split("; ")) {
							String code = line.split(":", 2)[0].strip();
							if (code.matches("[A-Z_]+")) {
								problems.add(response.getKey() + " `" + code + "`");
							}
						}
					}
				}
				page.append("| ")
					.append(method.toUpperCase(Locale.ROOT))
					.append(" | `")
					.append(path)
					.append("` | ")
					.append(operation.path("summary").asString().replace("|", "\\|"))
					.append(" | ")
					.append(String.join(", ", answers))
					.append(" | ")
					.append(String.join(", ", problems))
					.append(" |\n");
			}
		}
		return page.toString();
	}

	/** A typed operation of one handler of the test application's workflow types. */
	private static boolean typedHandler(String path) {
		return path.matches(".*/(signals|queries|updates)/[^{/]+$");
	}

}
