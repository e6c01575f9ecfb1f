package dev.durable.workflow.web;

import java.nio.file.Files;
import java.nio.file.Path;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasKey;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * With springdoc on the classpath, the generated endpoints are in the application's
 * OpenAPI document.
 */
class OpenApiTest extends RestApiTestSupport {

	@Test
	void theEndpointsAreDescribed() throws Exception {
		this.mvc.perform(get("/v3/api-docs"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.paths", hasKey("/durable/workflows")))
			.andExpect(jsonPath("$.paths", hasKey("/durable/workflows/{workflowId}/signals/{name}")))
			.andExpect(jsonPath("$.paths", hasKey("/durable/workflows/{workflowId}/updates/{name}")))
			.andExpect(jsonPath("$.paths", hasKey("/durable/schedules")));
		// kept for reading and linting: target/openapi.json
		String document = this.mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getContentAsString();
		Files.writeString(Path.of("target", "openapi.json"), document);
	}

	@Test
	void theDocumentIsValidForGeneratorsAndTitled() throws Exception {
		JsonNode document = JsonMapper.builder()
			.build()
			.readTree(this.mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getContentAsString());
		assertThat(document.path("info").path("title").asString()).isNotEqualTo("OpenAPI definition").isNotBlank();
		assertThat(document.path("info").path("version").asString()).isNotEqualTo("v0").isNotBlank();
		Set<String> templates = new HashSet<>();
		for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
			// OpenAPI 3.1: two templates that differ only in their variables' names are
			// one
			// path
			assertThat(templates.add(path.getKey().replaceAll("\\{[^}]+}", "{}")))
				.as("path %s is unique", path.getKey())
				.isTrue();
			for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
				for (JsonNode parameter : operation.getValue().path("parameters")) {
					assertThat(parameter.path("name").asString())
						.as("a parameter of %s %s", operation.getKey(), path.getKey())
						.isNotEqualTo("body");
				}
			}
		}
		JsonNode updates = document.path("paths").path("/durable/workflows/{workflowId}/updates/{name}");
		assertThat(updates.has("post")).as("the update").isTrue();
		assertThat(updates.has("get")).as("the update's outcome").isTrue();
		assertThat(document.path("paths").path("/durable/debounces").path("post").path("requestBody").isObject())
			.isTrue();
	}

}
