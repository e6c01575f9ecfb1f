package dev.durable.workflow.autoconfigure.web;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import dev.durable.workflow.autoconfigure.web.app.WebTestApplication;

import static org.hamcrest.Matchers.hasKey;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** With springdoc on the classpath, the generated endpoints are in the application's OpenAPI document. */
@SpringBootTest(classes = WebTestApplication.class,
		properties = { "durable.workflow.schema=web_api", "durable.workflow.max-payload-size=2KB",
				"durable.workflow.embedded-postgres.enabled=false", "durable.workflow.worker.poll-interval=100ms" })
class OpenApiTest {

	@Autowired
	private WebApplicationContext context;

	@Test
	void theEndpointsAreDescribed() throws Exception {
		MockMvc mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		mvc.perform(get("/v3/api-docs"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.paths", hasKey("/durable/workflows")))
			.andExpect(jsonPath("$.paths", hasKey("/durable/workflows/{workflowId}/signals/{name}")))
			.andExpect(jsonPath("$.paths", hasKey("/durable/workflows/{workflowId}/updates/{name}")))
			.andExpect(jsonPath("$.paths", hasKey("/durable/schedules")));
	}

}
