package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.startsWith;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code GET /durable/workflows/{id}/waiting-on}: what an open run waits for, with the
 * line of its code's await; nothing for a closed run; 404 for an unknown one.
 */
class WaitingOnRestTest extends RestApiTestSupport {

	@Test
	void anOpenRunSaysWhatItWaitsForAndAClosedOneNothing() throws Exception {
		this.mvc.perform(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"waiting-rest-1\",\"input\":{\"item\":\"desk\",\"quantity\":1}}"))
			.andExpect(status().isCreated());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/waiting-rest-1/waiting-on"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[*].kind").value(hasItem("CONDITION"))));
		this.mvc.perform(get("/durable/workflows/waiting-rest-1/waiting-on"))
			.andExpect(jsonPath("$[0].name").value("OrderWorkflow.run"))
			.andExpect(jsonPath("$[0].location").value(startsWith("OrderWorkflow.run(OrderWorkflow.java:")));
		this.mvc.perform(get("/durable/workflows").param("workflowIdPrefix", "waiting-rest-"))
			.andExpect(jsonPath("$.executions[0].taskFailing").value(false));

		this.mvc.perform(json(post("/durable/workflows/waiting-rest-1/terminate"), "{\"reason\":\"done\"}"))
			.andExpect(status().isNoContent());
		this.mvc.perform(get("/durable/workflows/waiting-rest-1/waiting-on"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$").isEmpty());
		problem(get("/durable/workflows/no-such-run/waiting-on"), 404, "WORKFLOW_NOT_FOUND");
	}

}
