package dev.durable.workflow.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code docs/reference/configuration-properties.md} is generated from the configuration
 * metadata the build writes for the starter's properties (their Javadoc, types and
 * defaults), so the reference cannot drift from the code: this test fails when the page
 * differs from what the metadata gives, and rewrites it when run with
 * {@code -Ddurable.docs.write=true}.
 */
class ConfigurationPropertiesReferenceTest {

	static final Path PAGE = Path.of("..", "docs", "reference", "configuration-properties.md");

	private static final Path METADATA = Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json");

	@Test
	void theReferencePageIsTheOneTheMetadataGives() throws IOException {
		String generated = page(JsonMapper.builder().build().readTree(Files.readString(METADATA)));
		GeneratedPage.check(PAGE, generated);
	}

	static String page(JsonNode metadata) {
		List<JsonNode> properties = new ArrayList<>();
		metadata.path("properties").forEach(properties::add);
		properties.removeIf((property) -> !property.path("name").asString().startsWith("durable."));
		properties.sort((a, b) -> a.path("name").asString().compareTo(b.path("name").asString()));
		StringBuilder page = new StringBuilder("""
				# Configuration properties

				Every `durable.*` property of the Spring Boot starter, with its type, default and meaning.
				This page is generated from the starter's configuration metadata (the properties classes'
				Javadoc) by `ConfigurationPropertiesReferenceTest`; the [Spring Boot guide](../spring-boot.md)
				explains them by task.

				| Property | Type | Default | Description |
				|---|---|---|---|
				""");
		for (JsonNode property : properties) {
			page.append("| `")
				.append(property.path("name").asString())
				.append("` | ")
				.append("`")
				.append(type(property.path("type").asString()))
				.append("`")
				.append(" | ")
				.append(defaultValue(property.get("defaultValue")))
				.append(" | ")
				.append(cell(property.path("description").asString()))
				.append(" |\n");
		}
		return page.toString();
	}

	/**
	 * A Java type as a reader writes it: simple names, nested types by their own name.
	 */
	private static String type(String type) {
		return type.replaceAll("[\\w.]+[.$](\\w+)", "$1").replace(",", ", ");
	}

	private static String defaultValue(JsonNode value) {
		if (value == null || value.isNull()) {
			return "";
		}
		if (value.isArray()) {
			List<String> items = new ArrayList<>();
			value.forEach((item) -> items.add(item.asString()));
			return "`" + String.join(",", items) + "`";
		}
		return "`" + value.asString().replace("|", "\\|") + "`";
	}

	private static String cell(String text) {
		return text.replace("|", "\\|").replace("\n", " ").strip();
	}

}
