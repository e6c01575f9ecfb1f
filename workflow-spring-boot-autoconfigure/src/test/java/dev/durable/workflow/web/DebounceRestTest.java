package dev.durable.workflow.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code POST /durable/debounces}: calls with one key collapse into one run started with
 * the last input (202 with the window); bad bodies are 400 with a stable code and open no
 * window.
 */
class DebounceRestTest extends RestApiTestSupport {

	private static String body(String key, String input) {
		return "{\"type\":\"payment\",\"key\":\"" + key + "\",\"delay\":\"PT5S\",\"maxWait\":\"PT30S\",\"input\":\""
				+ input + "\"}";
	}

	@Test
	void callsCollapseIntoOneRunWithTheLastInput() throws Exception {
		String first = this.mvc.perform(json(post("/durable/debounces"), body("rest-key", "first")))
			.andExpect(status().isAccepted())
			.andExpect(jsonPath("$.key").value("rest-key"))
			.andExpect(jsonPath("$.calls").value(1))
			.andExpect(jsonPath("$.startsAt").isNotEmpty())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String workflowId = first.replaceAll(".*\"workflowId\":\"([^\"]+)\".*", "$1");
		this.mvc.perform(json(post("/durable/debounces"), body("rest-key", "last")))
			.andExpect(status().isAccepted())
			.andExpect(jsonPath("$.workflowId").value(workflowId))
			.andExpect(jsonPath("$.calls").value(2));
		// the window fires 5 s after the last call: one run, started with the last input
		await().atMost(Duration.ofSeconds(30)).until(() -> history(workflowId).contains("WORKFLOW_STARTED"));
		String history = history(workflowId);
		assertThat(history).contains("WORKFLOW_STARTED").contains("last").doesNotContain("first");
	}

	private String history(String workflowId) throws Exception {
		return this.mvc.perform(get("/durable/workflows/" + workflowId + "/history"))
			.andReturn()
			.getResponse()
			.getContentAsString();
	}

	@Test
	void badBodiesAreRefusedWithAStableCode() throws Exception {
		problem(json(post("/durable/debounces"), "[1]"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/debounces"), "{\"type\":\"payment\",\"key\":\"k\",\"maxWait\":\"PT1S\"}"), 400,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/debounces"), body("k", "x").replace("PT5S", "soon")), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/debounces"), body("k", "x").replace("PT30S", "PT1S")), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/debounces"), body("bad key!", "x")), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/debounces"), body("k", "x").replace("\"payment\"", "\"no-such-type\"")), 400,
				"UNKNOWN_TYPE");
		problem(json(post("/durable/debounces"), body("k", "x").replace("{", "{\"workflowId\":\"bad id!\",")), 400,
				"INVALID_ID");
		problem(json(post("/durable/debounces"), body("k", "x").replace("{", "{\"extra\":1,")), 400, "INVALID_PAYLOAD");
	}

}
