package dev.durable.workflow.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.durable.workflow.autoconfigure.actuate.WorkflowsEndpoint;
import dev.durable.workflow.engine.WorkflowEngine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;

/**
 * The engine's own {@code durable-permit} type (the semaphore's permits) is registered on
 * this application's node but left out of what the REST API, the dashboard (which lists
 * what {@code /workflow-types} answers) and the actuator endpoint show, and cannot be
 * started by name.
 */
class InternalWorkflowTypeHiddenEndpointsTest extends RestApiTestSupport {

	@Autowired
	private WorkflowEngine engine;

	@Test
	void theWorkflowTypesListAndStartErrorsLeaveItOut() throws Exception {
		this.mvc.perform(get("/durable/workflow-types"))
			.andExpect(jsonPath("$[*].type", hasItem("order")))
			.andExpect(jsonPath("$[*].type", not(hasItem("durable-permit"))));
		problem(json(post("/durable/workflows"), "{\"type\":\"durable-permit\",\"input\":null}"), 400, "UNKNOWN_TYPE");
		this.mvc.perform(json(post("/durable/workflows"), "{\"type\":\"durable-permit\",\"input\":null}"))
			.andExpect(jsonPath("$.detail", not(org.hamcrest.Matchers.containsString("known types: [durable"))))
			.andExpect(jsonPath("$.detail", org.hamcrest.Matchers.containsString("order")));
	}

	@Test
	void theActuatorEndpointsNodesLeaveItOut() {
		WorkflowsEndpoint endpoint = new WorkflowsEndpoint(this.engine, Duration.ofMinutes(5));
		assertThat(endpoint.workflows().nodes()).isNotEmpty()
			.allSatisfy((node) -> assertThat(node.servedTypes()).contains("order").doesNotContain("durable-permit"));
	}

}
