package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

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
	}

}
