package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code POST /durable/workflows/{id}/activities/{activityId}/pause}, {@code /unpause},
 * {@code /reset} and {@code /options}: the pending activity's pause and options in the
 * run's description and waiting-on, the records in its history, and the problems of an
 * activity the run does not wait for, a missing or closed run and bad bodies (never a
 * 500).
 */
class ActivityOperationsRestTest extends RestApiTestSupport {

	/** Starts a payment: its charge attempt waits for the completion client. */
	private void startPayment(String workflowId) throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"payment\",\"workflowId\":\"" + workflowId + "\",\"input\":\"" + workflowId + "\"}"))
			.andExpect(status().isCreated());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/" + workflowId))
			.andExpect(jsonPath("$.pendingActivities[0].activityId").value(1)));
	}

	@Test
	void anActivityIsPausedUnpausedResetAndGivenNewOptions() throws Exception {
		startPayment("act-rest-1");
		String base = "/durable/workflows/act-rest-1/activities/1";
		this.mvc.perform(json(post(base + "/pause"), "{\"reason\":\"gateway maintenance\"}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.workflowId").value("act-rest-1"))
			.andExpect(jsonPath("$.activityId").value(1))
			.andExpect(jsonPath("$.paused").value(true))
			.andExpect(jsonPath("$.changed").value(true))
			.andExpect(jsonPath("$.runId").isNotEmpty());
		this.mvc.perform(post(base + "/pause"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.changed").value(false));
		this.mvc.perform(get("/durable/workflows/act-rest-1"))
			.andExpect(jsonPath("$.pendingActivities[0].pausedTime").isNotEmpty())
			.andExpect(jsonPath("$.pendingActivities[0].pauseReason").value("gateway maintenance"));
		this.mvc.perform(get("/durable/workflows/act-rest-1/waiting-on"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[*].kind").value(hasItem("ACTIVITY_PAUSED")));

		this.mvc.perform(post(base + "/unpause"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.paused").value(false))
			.andExpect(jsonPath("$.changed").value(true));
		this.mvc.perform(get("/durable/workflows/act-rest-1"))
			.andExpect(jsonPath("$.pendingActivities[0].pausedTime").doesNotExist());

		this.mvc
			.perform(json(post(base + "/options"),
					"{\"startToCloseTimeout\":\"PT10M\",\"retryPolicy\":{\"maximumAttempts\":7}}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.options.startToCloseTimeout").value("PT10M"))
			.andExpect(jsonPath("$.options.retryPolicy.maximumAttempts").value(7))
			.andExpect(jsonPath("$.options.retryPolicy.initialInterval").value("PT0.1S"));
		this.mvc.perform(get("/durable/workflows/act-rest-1"))
			.andExpect(jsonPath("$.pendingActivities[0].options.retryPolicy.maximumAttempts").value(7));

		this.mvc.perform(json(post(base + "/reset"), "{\"keepHeartbeatDetails\":false}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.keepHeartbeatDetails").value(false));
		this.mvc.perform(post(base + "/reset"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.keepHeartbeatDetails").value(true));

		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/act-rest-1/history"))
			.andExpect(jsonPath("$[*].type").value(hasItem("ACTIVITY_PAUSED")))
			.andExpect(jsonPath("$[*].type").value(hasItem("ACTIVITY_UNPAUSED")))
			.andExpect(jsonPath("$[*].type").value(hasItem("ACTIVITY_OPTIONS_UPDATED")))
			.andExpect(jsonPath("$[*].type").value(hasItem("ACTIVITY_RESET"))));
	}

	@Test
	void anActivityTheRunDoesNotWaitForAMissingOrClosedRunOrABadBodyIsAProblem() throws Exception {
		startPayment("act-rest-bad");
		String base = "/durable/workflows/act-rest-bad/activities/";
		problem(post(base + "9/pause"), 404, "ACTIVITY_NOT_PENDING");
		problem(post(base + "9/unpause"), 404, "ACTIVITY_NOT_PENDING");
		problem(post(base + "9/reset"), 404, "ACTIVITY_NOT_PENDING");
		problem(json(post(base + "9/options"), "{\"heartbeatTimeout\":\"PT1M\"}"), 404, "ACTIVITY_NOT_PENDING");
		problem(post(base + "one/pause"), 400, "INVALID_PAYLOAD");
		problem(json(post(base + "1/pause"), "{\"reason\":5}"), 400, "INVALID_PAYLOAD");
		problem(json(post(base + "1/reset"), "{\"keepHeartbeatDetails\":\"yes\"}"), 400, "INVALID_PAYLOAD");
		problem(json(post(base + "1/options"), "{}"), 400, "INVALID_PAYLOAD");
		problem(json(post(base + "1/options"), "[1]"), 400, "INVALID_PAYLOAD");
		problem(post(base + "1/options"), 400, "INVALID_PAYLOAD");
		problem(json(post(base + "1/options"), "{\"startToCloseTimeout\":\"soon\"}"), 400, "INVALID_PAYLOAD");
		problem(json(post(base + "1/options"), "{\"startToCloseTimeout\":\"-PT1S\"}"), 400, "INVALID_PAYLOAD");
		problem(json(post(base + "1/options"), "{\"retryPolicy\":{\"backoffCoefficient\":0.5}}"), 400,
				"INVALID_PAYLOAD");
		this.mvc.perform(get("/durable/workflows/act-rest-bad"))
			.andExpect(jsonPath("$.pendingActivities[0].pausedTime").doesNotExist());

		problem(post("/durable/workflows/no-such-run/activities/1/pause"), 404, "WORKFLOW_NOT_FOUND");
		this.mvc.perform(json(post("/durable/workflows/act-rest-bad/terminate"), "{\"reason\":\"done\"}"))
			.andExpect(status().isNoContent());
		problem(post(base + "1/pause"), 409, "WORKFLOW_CLOSED");
		problem(post(base + "1/unpause"), 409, "WORKFLOW_CLOSED");
		problem(post(base + "1/reset"), 409, "WORKFLOW_CLOSED");
		problem(json(post(base + "1/options"), "{\"heartbeatTimeout\":\"PT1M\"}"), 409, "WORKFLOW_CLOSED");
	}

}
