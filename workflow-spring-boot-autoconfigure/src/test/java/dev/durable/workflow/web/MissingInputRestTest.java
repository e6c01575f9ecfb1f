package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A start that could only fail is refused with {@code 400 MISSING_INPUT} and starts
 * nothing: no input for a run method that takes one, or a record input (or a signal's
 * payload) without a primitive field, which would silently become 0 or false. Reference
 * fields stay optional.
 */
class MissingInputRestTest extends RestApiTestSupport {

	@Test
	void aStartWithoutTheInputTheRunMethodTakesIsRefusedAndStartsNothing() throws Exception {
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"no-input\"}"), 400,
				"MISSING_INPUT");
		problem(json(post("/durable/workflows"), "{\"type\":\"order\",\"workflowId\":\"null-input\",\"input\":null}"),
				400, "MISSING_INPUT");
		this.mvc.perform(get("/durable/workflows/no-input")).andExpect(status().isNotFound());
		this.mvc.perform(get("/durable/workflows/null-input")).andExpect(status().isNotFound());
	}

	@Test
	void aRecordInputWithoutAPrimitiveFieldIsRefusedNamingTheField() throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"no-quantity\",\"input\":{\"item\":\"tea\"}}"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.code").value("MISSING_INPUT"))
			.andExpect(jsonPath("$.detail").value(org.hamcrest.Matchers.containsString("\"input.quantity\" (int)")));
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"null-quantity\",\"input\":{\"item\":\"tea\",\"quantity\":null}}"),
				400, "MISSING_INPUT");
		this.mvc.perform(get("/durable/workflows/no-quantity")).andExpect(status().isNotFound());
		this.mvc.perform(get("/durable/workflows/null-quantity")).andExpect(status().isNotFound());
		// a reference field may be absent
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"no-item\",\"input\":{\"quantity\":1}}"))
			.andExpect(status().isCreated());
	}

	@Test
	void aSignalPayloadWithoutAPrimitiveFieldIsRefused() throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"expense\",\"workflowId\":\"expense-missing\",\"input\":\"taxi\"}"))
			.andExpect(status().isCreated());
		problem(json(post("/durable/workflows/expense-missing/signals/decision"), "{\"by\":\"ann\"}"), 400,
				"MISSING_INPUT");
		this.mvc
			.perform(json(post("/durable/workflows/expense-missing/signals/decision"),
					"{\"approved\":true,\"by\":\"ann\"}"))
			.andExpect(status().is2xxSuccessful());
	}

}
