package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A signal name the workflow type does not take (no handler, no dynamic handler, not
 * declared for {@code Workflows.receive}) is answered 404 {@code UNKNOWN_HANDLER} over
 * REST and stores nothing; declared names are accepted and their payloads converted to
 * the declared type.
 */
class UnknownSignalRestTest extends RestApiTestSupport {

	@Autowired
	private JdbcTemplate jdbc;

	private int stored(String workflowId) {
		Integer inbox = this.jdbc.queryForObject("SELECT count(*) FROM web_api.inbox i JOIN web_api.workflow_run r"
				+ " ON r.run_id = i.run_id WHERE r.workflow_id = ?", Integer.class, workflowId);
		Integer dedup = this.jdbc.queryForObject("SELECT count(*) FROM web_api.dedup WHERE workflow_id = ?",
				Integer.class, workflowId);
		// the run's count of messages ever sent to it
		Integer sent = this.jdbc.queryForObject("SELECT sum(inbox_seq) FROM web_api.workflow_run WHERE workflow_id = ?",
				Integer.class, workflowId);
		return inbox + dedup + sent;
	}

	private int runs(String workflowId) {
		return this.jdbc.queryForObject("SELECT count(*) FROM web_api.workflow_run WHERE workflow_id = ?",
				Integer.class, workflowId);
	}

	@Test
	void aSignalToAnUnknownNameIs404AndStoresNothing() throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"expense\",\"workflowId\":\"expense-typo\",\"input\":\"taxi\"}"))
			.andExpect(status().isCreated());

		problem(json(post("/durable/workflows/expense-typo/signals/coment"), "\"fine\""), 404, "UNKNOWN_HANDLER");
		problem(json(post("/durable/workflows/expense-typo/signals/coment"), "\"fine\"").header("Idempotency-Key",
				"k-1"), 404, "UNKNOWN_HANDLER");
		this.mvc.perform(json(post("/durable/workflows/expense-typo/signals/coment"), "\"fine\""))
			.andExpect(jsonPath("$.detail", containsString("comment")))
			.andExpect(jsonPath("$.detail", containsString("decision")));
		assertThat(stored("expense-typo")).isZero();

		// the declared names answer 202, the typed one converted to its declared type
		problem(json(post("/durable/workflows/expense-typo/signals/decision"), "\"yes\""), 400, "INVALID_PAYLOAD");
		this.mvc.perform(json(post("/durable/workflows/expense-typo/signals/comment"), "\"fine\""))
			.andExpect(status().isAccepted());
		this.mvc
			.perform(
					json(post("/durable/workflows/expense-typo/signals/decision"), "{\"approved\":true,\"by\":\"ann\"}")
						.header("Idempotency-Key", "k-1"))
			.andExpect(status().isAccepted());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/expense-typo/result"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.result").value("taxi: fine, approved by ann")));
	}

	@Test
	void signalWithStartToAnUnknownNameIs404AndStartsNothing() throws Exception {
		problem(json(post("/durable/workflows"),
				"{\"type\":\"expense\",\"workflowId\":\"expense-sws\",\"input\":\"hotel\","
						+ "\"signal\":{\"name\":\"coment\",\"payload\":\"fine\"}}"),
				404, "UNKNOWN_HANDLER");
		assertThat(runs("expense-sws")).isZero();
		problem(get("/durable/workflows/expense-sws"), 404, "WORKFLOW_NOT_FOUND");

		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"expense\",\"workflowId\":\"expense-sws\",\"input\":\"hotel\","
							+ "\"signal\":{\"name\":\"decision\",\"payload\":{\"approved\":false,\"by\":\"bob\"}}}"))
			.andExpect(status().isCreated());
		this.mvc.perform(json(post("/durable/workflows/expense-sws/signals/comment"), "\"too dear\""))
			.andExpect(status().isAccepted());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/expense-sws/result"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.result").value("hotel: too dear, rejected by bob")));
	}

	@Test
	void theWorkflowTypesListTheDeclaredNames() throws Exception {
		this.mvc.perform(get("/durable/workflow-types"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.type == 'expense')].receives[*].name", contains("comment", "decision")))
			.andExpect(jsonPath("$[?(@.type == 'expense')].receives[1].payloadType",
					contains("dev.durable.workflow.web.app.ExpenseWorkflow$Decision")))
			.andExpect(jsonPath("$[?(@.type == 'expense')].signals[*]").isEmpty());
	}

}
