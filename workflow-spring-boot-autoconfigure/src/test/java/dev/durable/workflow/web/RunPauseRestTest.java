package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code POST /durable/workflows/{id}/pause} and {@code /unpause}: the run's pause state
 * in its description and the list's {@code paused} filter, a batch that pauses by filter,
 * and the problems of a missing or closed run and a bad body.
 */
class RunPauseRestTest extends RestApiTestSupport {

	private void startOrder(String workflowId) throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"" + workflowId
							+ "\",\"input\":{\"item\":\"lamp\",\"quantity\":1}}"))
			.andExpect(status().isCreated());
	}

	@Test
	void aRunIsPausedWithAReasonListedAsPausedAndUnpaused() throws Exception {
		startOrder("pause-rest-1");
		this.mvc.perform(json(post("/durable/workflows/pause-rest-1/pause"), "{\"reason\":\"stock check\"}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.workflowId").value("pause-rest-1"))
			.andExpect(jsonPath("$.paused").value(true))
			.andExpect(jsonPath("$.changed").value(true))
			.andExpect(jsonPath("$.runId").isNotEmpty());
		this.mvc.perform(post("/durable/workflows/pause-rest-1/pause"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.changed").value(false));
		this.mvc.perform(get("/durable/workflows/pause-rest-1"))
			.andExpect(jsonPath("$.pausedAt").isNotEmpty())
			.andExpect(jsonPath("$.pauseReason").value("stock check"));
		this.mvc.perform(get("/durable/workflows").param("paused", "true"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.executions[*].workflowId").value(hasItem("pause-rest-1")))
			.andExpect(jsonPath("$.executions[?(@.workflowId == 'pause-rest-1')].paused").value(hasItem(true)));
		this.mvc.perform(get("/durable/workflows").param("paused", "false"))
			.andExpect(jsonPath("$.executions[*].workflowId").value(not(hasItem("pause-rest-1"))));

		// a signal waits; the unpause delivers it
		this.mvc.perform(post("/durable/workflows/pause-rest-1/signals/finish")).andExpect(status().isAccepted());
		this.mvc.perform(post("/durable/workflows/pause-rest-1/unpause"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.paused").value(false))
			.andExpect(jsonPath("$.changed").value(true));
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/pause-rest-1"))
			.andExpect(jsonPath("$.status").value("COMPLETED"))
			.andExpect(jsonPath("$.pausedAt").doesNotExist()));
	}

	@Test
	void aBatchPausesTheRunsItsFilterMatches() throws Exception {
		startOrder("pause-batch-1");
		startOrder("pause-batch-2");
		this.mvc
			.perform(json(post("/durable/batches"),
					"{\"batchId\":\"pause-batch\",\"operation\":\"PAUSE\",\"reason\":\"audit\","
							+ "\"filter\":{\"workflowIdPrefix\":\"pause-batch-\"}}"))
			.andExpect(status().is2xxSuccessful());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/batches/pause-batch"))
			.andExpect(jsonPath("$.state").value("COMPLETED")));
		this.mvc.perform(get("/durable/workflows/pause-batch-2")).andExpect(jsonPath("$.pauseReason").value("audit"));
		this.mvc
			.perform(json(post("/durable/batches"),
					"{\"batchId\":\"unpause-batch\",\"operation\":\"UNPAUSE\",\"filter\":{\"paused\":true,"
							+ "\"workflowIdPrefix\":\"pause-batch-\"}}"))
			.andExpect(status().is2xxSuccessful());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/pause-batch-1"))
			.andExpect(jsonPath("$.pausedAt").doesNotExist()));
		problem(json(post("/durable/batches"),
				"{\"operation\":\"PAUSE\",\"filter\":{\"paused\":\"yes\",\"workflowIdPrefix\":\"p\"}}"), 400,
				"INVALID_BATCH");
	}

	@Test
	void aMissingOrClosedRunOrABadBodyIsAProblem() throws Exception {
		problem(post("/durable/workflows/no-such-run/pause"), 404, "WORKFLOW_NOT_FOUND");
		problem(post("/durable/workflows/no-such-run/unpause"), 404, "WORKFLOW_NOT_FOUND");
		startOrder("pause-rest-closed");
		this.mvc.perform(json(post("/durable/workflows/pause-rest-closed/terminate"), "{\"reason\":\"done\"}"))
			.andExpect(status().isNoContent());
		problem(post("/durable/workflows/pause-rest-closed/pause"), 409, "WORKFLOW_CLOSED");
		problem(post("/durable/workflows/pause-rest-closed/unpause"), 409, "WORKFLOW_CLOSED");
		startOrder("pause-rest-bad");
		problem(json(post("/durable/workflows/pause-rest-bad/pause"), "{\"reason\":5}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows/pause-rest-bad/pause"), "[1]"), 400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows").param("paused", "perhaps"), 400, "INVALID_PAYLOAD");
		this.mvc.perform(get("/durable/workflows/pause-rest-bad")).andExpect(jsonPath("$.pausedAt").doesNotExist());
	}

}
