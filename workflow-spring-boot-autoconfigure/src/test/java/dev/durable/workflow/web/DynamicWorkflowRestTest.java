package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import dev.durable.workflow.web.dynamic.DynamicWebApplication;

import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A dynamic workflow over REST: a start of any type name runs it, with the input as sent.
 */
@SpringBootTest(classes = DynamicWebApplication.class, properties = { "durable.workflow.schema=web_dynamic",
		"durable.workflow.embedded-postgres.enabled=false", "durable.workflow.worker.poll-interval=100ms" })
class DynamicWorkflowRestTest {

	@Autowired
	private WebApplicationContext context;

	@Test
	void aStartOfAnyTypeRunsTheDynamicWorkflow() throws Exception {
		MockMvc mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		mvc.perform(post("/durable/workflows").contentType(MediaType.APPLICATION_JSON)
			.content("{\"type\":\"invoice\",\"workflowId\":\"dyn-rest-1\",\"input\":{\"amount\":12}}"))
			.andExpect(status().isCreated());
		await().untilAsserted(() -> mvc.perform(get("/durable/workflows/dyn-rest-1/result"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.result.type").value("invoice"))
			.andExpect(jsonPath("$.result.input.amount").value(12)));
		mvc.perform(get("/durable/workflows/dyn-rest-1"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.workflowType").value("invoice"));
	}

}
