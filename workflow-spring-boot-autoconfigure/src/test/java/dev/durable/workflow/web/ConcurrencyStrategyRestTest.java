package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.web.app.WebTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * What a REST start beyond a partition key's concurrency answers under the excess
 * strategies: 429 {@code START_DROPPED} for drop, 409 {@code START_CANCELED} for
 * cancel-newest, and nothing stored for the refused start.
 */
@SpringBootTest(classes = WebTestApplication.class,
		properties = { "durable.workflow.schema=web_excess", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms",
				"durable.workflow.queues.exports.partition-concurrency=1",
				"durable.workflow.queues.exports.partition-excess=drop",
				"durable.workflow.queues.imports.partition-concurrency=1",
				"durable.workflow.queues.imports.partition-excess=cancel-newest" })
class ConcurrencyStrategyRestTest extends RestApiTestSupport {

	@Autowired
	private JdbcTemplate jdbc;

	private int runs(String workflowId) {
		return this.jdbc.queryForObject("SELECT count(*) FROM web_excess.workflow_run WHERE workflow_id = ?",
				Integer.class, workflowId);
	}

	@Test
	void aDroppedStartIs429AndACanceledOneIs409AndNeitherIsStored() throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"export-1\",\"input\":{\"item\":\"x\",\"quantity\":1},"
							+ "\"options\":{\"queue\":\"exports\",\"partitionKey\":\"tenant-1\"}}"))
			.andExpect(status().isCreated());
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"export-2\",\"input\":{\"item\":\"x\",\"quantity\":1},"
						+ "\"options\":{\"queue\":\"exports\",\"partitionKey\":\"tenant-1\"}}"),
				429, "START_DROPPED");
		assertThat(runs("export-2")).isZero();

		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"import-1\",\"input\":{\"item\":\"x\",\"quantity\":1},"
							+ "\"options\":{\"queue\":\"imports\",\"partitionKey\":\"tenant-1\"}}"))
			.andExpect(status().isCreated());
		problem(json(post("/durable/workflows"),
				"{\"type\":\"order\",\"workflowId\":\"import-2\",\"input\":{\"item\":\"x\",\"quantity\":1},"
						+ "\"options\":{\"queue\":\"imports\",\"partitionKey\":\"tenant-1\"}}"),
				409, "START_CANCELED");
		assertThat(runs("import-2")).isZero();
		// another key is not affected
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"export-3\",\"input\":{\"item\":\"x\",\"quantity\":1},"
							+ "\"options\":{\"queue\":\"exports\",\"partitionKey\":\"tenant-2\"}}"))
			.andExpect(status().isCreated());
	}

}
