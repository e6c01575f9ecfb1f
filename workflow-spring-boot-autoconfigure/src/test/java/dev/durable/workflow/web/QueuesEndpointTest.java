package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code GET /durable/queues}: the queue declared by
 * {@code durable.workflow.queues.reports.*} (concurrency 1) with the runs started into
 * it, against a real embedded PostgreSQL.
 */
class QueuesEndpointTest extends RestApiTestSupport {

	private static final String REPORTS = "$[?(@.name == 'reports')]";

	private void startQueued(String workflowId) throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"" + workflowId
							+ "\",\"input\":{\"item\":\"report\",\"quantity\":1},\"options\":{\"queue\":\"reports\"}}"))
			.andExpect(status().isCreated());
	}

	private void expectReports(int runningWorkflows, int waitingWorkflows) {
		await().untilAsserted(() -> this.mvc.perform(get("/durable/queues"))
			.andExpect(status().isOk())
			.andExpect(jsonPath(REPORTS + ".runningWorkflows").value(contains(runningWorkflows)))
			.andExpect(jsonPath(REPORTS + ".waitingWorkflows").value(contains(waitingWorkflows))));
	}

	@Test
	void listsTheDeclaredQueueWithItsLimitsAndWhatItHolds() throws Exception {
		startQueued("report-1");
		expectReports(1, 0);
		startQueued("report-2");
		expectReports(1, 1);
		this.mvc.perform(get("/durable/queues"))
			.andExpect(status().isOk())
			.andExpect(jsonPath(REPORTS + ".limits.concurrency").value(contains(1)))
			.andExpect(jsonPath(REPORTS + ".limits.perNodeConcurrency").value(contains(0)))
			.andExpect(jsonPath(REPORTS + ".limits.rateLimit").value(contains(100)))
			.andExpect(jsonPath(REPORTS + ".limits.ratePeriod").value(contains("PT1M")))
			.andExpect(jsonPath(REPORTS + ".limits.partitionConcurrency").value(contains(0)))
			.andExpect(jsonPath(REPORTS + ".waitingActivities").value(contains(0)))
			.andExpect(jsonPath(REPORTS + ".runningActivities").value(contains(0)))
			.andExpect(jsonPath(REPORTS + ".depth").value(contains(1)))
			.andExpect(jsonPath(REPORTS + ".running").value(contains(1)))
			.andExpect(jsonPath(REPORTS + ".oldestWaitingSince").value(contains(notNullValue())));
		// the first run's close frees its slot for the second
		this.mvc.perform(post("/durable/workflows/report-1/signals/finish")).andExpect(status().isAccepted());
		expectReports(1, 0);
		this.mvc.perform(post("/durable/workflows/report-2/signals/finish")).andExpect(status().isAccepted());
		expectReports(0, 0);
		this.mvc.perform(get("/durable/queues"))
			.andExpect(jsonPath(REPORTS + ".oldestWaitingSince").value(contains(nullValue())));
	}

	@Test
	void aStartIntoAQueueNoNodeDeclaredIsRefusedAndStartsNothing() throws Exception {
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"report-nowhere\","
						+ "\"input\":{\"item\":\"report\",\"quantity\":1},\"options\":{\"queue\":\"nowhere\"}}"),
				400, "INVALID_PAYLOAD");
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"report-nowhere\","
						+ "\"input\":{\"item\":\"report\",\"quantity\":1},\"options\":{\"queue\":\"reports\","
						+ "\"priority\":\"high\"}}"),
				400, "INVALID_PAYLOAD");
		problem(get("/durable/workflows/report-nowhere"), 404, "WORKFLOW_NOT_FOUND");
		this.mvc.perform(get("/durable/queues"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.name == 'nowhere')]").isEmpty());
	}

	@Test
	void theDashboardShowsTheQueuesAndRefreshesThem() throws Exception {
		// the overview module draws the queues of GET /overview and polls it
		this.mvc.perform(get("/durable/ui/overview.js"))
			.andExpect(status().isOk())
			.andExpect(org.springframework.test.web.servlet.result.MockMvcResultMatchers.content()
				.string(org.hamcrest.Matchers.allOf(org.hamcrest.Matchers.containsString("<h2>Queues"),
						org.hamcrest.Matchers.containsString("get(\"/overview\")"),
						org.hamcrest.Matchers.containsString("poll(refresh"))));
		this.mvc.perform(get("/durable/overview"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.queues[?(@.name == 'reports')].limits.concurrency").value(contains(1)));
	}

}
