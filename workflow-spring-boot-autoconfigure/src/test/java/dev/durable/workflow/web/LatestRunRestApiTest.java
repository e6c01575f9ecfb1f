package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * Without {@code runId} a call addresses the latest run of the workflow id; with it, that
 * run only.
 */
class LatestRunRestApiTest extends RestApiTestSupport {

	@Test
	void aSignalWithoutRunIdReachesTheContinuedRunAndOneWithTheFirstRunIdIsRefused() throws Exception {
		String started = this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"renewing\",\"workflowId\":\"renewing-1\",\"input\":1}"))
			.andExpect(status().isCreated())
			.andReturn()
			.getResponse()
			.getContentAsString();
		String first = started.replaceAll(".*\"runId\":\"([^\"]+)\".*", "$1");
		this.mvc.perform(post("/durable/workflows/renewing-1/signals/renew")).andExpect(status().isAccepted());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/renewing-1").param("runId", first))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("CONTINUED_AS_NEW")));

		problem(json(post("/durable/workflows/renewing-1/signals/addNote"), "\"to the first run\"").param("runId",
				first), 409, "WORKFLOW_CLOSED");
		problem(json(post("/durable/workflows/renewing-1/updates/addNoteNow"), "\"to the first run\"").param("runId",
				first), 409, "WORKFLOW_CLOSED");
		problem(post("/durable/workflows/renewing-1/cancel").param("runId", first), 409, "WORKFLOW_CLOSED");
		this.mvc.perform(json(post("/durable/workflows/renewing-1/signals/addNote"), "\"latest\""))
			.andExpect(status().isAccepted());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/renewing-1/queries/notes"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$").value(org.hamcrest.Matchers.contains("latest"))));
		this.mvc.perform(json(post("/durable/workflows/renewing-1/updates/addNoteNow"), "\"updated\""))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.result").value(2));
		this.mvc.perform(get("/durable/workflows/renewing-1"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.runId").value(org.hamcrest.Matchers.not(first)))
			.andExpect(jsonPath("$.status").value("RUNNING"));
		this.mvc.perform(post("/durable/workflows/renewing-1/signals/finish")).andExpect(status().isAccepted());
		this.mvc.perform(get("/durable/workflows/renewing-1/result").param("wait", "PT10S"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.status").value("COMPLETED"))
			.andExpect(jsonPath("$.result").value("run 2 notes [latest, updated]"));
	}

}
