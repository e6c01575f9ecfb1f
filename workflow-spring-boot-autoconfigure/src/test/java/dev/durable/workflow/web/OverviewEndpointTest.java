package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code GET /durable/overview}, what the dashboard's overview shows: runs by type and
 * status and in total, the backlog with the stuck threshold, the nodes and the queues,
 * read from a real PostgreSQL (the context is shared with the other REST tests, so counts
 * are lower bounds).
 */
class OverviewEndpointTest extends RestApiTestSupport {

	@Test
	void countsRunsByTypeAndStatusAndListsNodesAndQueues() throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"overview-1\",\"input\":{\"item\":\"tea\",\"quantity\":1}}"))
			.andExpect(status().isCreated());
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"overview-2\",\"input\":{\"item\":\"bomb\",\"quantity\":1}}"))
			.andExpect(status().isCreated());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/overview"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.runs.order.RUNNING").value(greaterThanOrEqualTo(1)))
			.andExpect(jsonPath("$.runs.order.FAILED").value(greaterThanOrEqualTo(1)))
			.andExpect(jsonPath("$.statusTotals.RUNNING").value(greaterThanOrEqualTo(1)))
			.andExpect(jsonPath("$.statusTotals.FAILED").value(greaterThanOrEqualTo(1))));
		this.mvc.perform(get("/durable/overview"))
			.andExpect(jsonPath("$.time").value(notNullValue()))
			.andExpect(jsonPath("$.nodeId").value(notNullValue()))
			.andExpect(jsonPath("$.backlog.runnable").value(greaterThanOrEqualTo(0)))
			.andExpect(jsonPath("$.backlog.failing").value(greaterThanOrEqualTo(0)))
			.andExpect(jsonPath("$.backlog.stuckAfter").value("PT5M"))
			.andExpect(jsonPath("$.nodes[*].alive").value(hasItem(true)))
			.andExpect(jsonPath("$.nodes[*].servedTypes[*]").value(hasItem("order")))
			.andExpect(jsonPath("$.queues[*].name").value(hasItem("reports")))
			.andExpect(jsonPath("$.failingRuns").isArray());
	}

}
