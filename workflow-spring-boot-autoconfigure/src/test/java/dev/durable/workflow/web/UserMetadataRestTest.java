package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A start's {@code options.summary} and {@code options.details} over REST: shown by
 * describe and the list; {@code GET .../current-details}; an overlong summary is a 400
 * that starts nothing.
 */
class UserMetadataRestTest extends RestApiTestSupport {

	@Test
	void theSummaryShowsInTheListAndDescribeAndTheCurrentDetailsAreRead() throws Exception {
		this.mvc.perform(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"metadata-rest-1\",\"input\":{\"item\":\"chair\",\"quantity\":4},"
						+ "\"options\":{\"summary\":\"4 chairs for the lobby\",\"details\":\"deliver after 5 pm\"}}"))
			.andExpect(status().isCreated());
		this.mvc.perform(get("/durable/workflows/metadata-rest-1"))
			.andExpect(jsonPath("$.summary").value("4 chairs for the lobby"))
			.andExpect(jsonPath("$.details").value("deliver after 5 pm"));
		this.mvc.perform(get("/durable/workflows").param("workflowIdPrefix", "metadata-rest-"))
			.andExpect(jsonPath("$.executions[*].summary").value(hasItem("4 chairs for the lobby")));
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/metadata-rest-1/current-details"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.workflowId").value("metadata-rest-1"))
			.andExpect(jsonPath("$.runId").isNotEmpty()));
		problem(get("/durable/workflows/no-such-run/current-details"), 404, "WORKFLOW_NOT_FOUND");
	}

	@Test
	void anOverlongSummaryIsRefusedAndStartsNothing() throws Exception {
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"metadata-rest-long\",\"input\":{\"item\":\"chair\",\"quantity\":1},"
						+ "\"options\":{\"summary\":\"" + "x".repeat(401) + "\"}}"),
				400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows/metadata-rest-long"), 404, "WORKFLOW_NOT_FOUND");
	}

}
