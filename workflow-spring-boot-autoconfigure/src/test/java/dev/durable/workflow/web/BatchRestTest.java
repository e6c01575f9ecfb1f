package dev.durable.workflow.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.durable.workflow.client.WorkflowClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The batch endpoints: a start answers 202 with the batch, the same id and body again 200
 * with the same batch, another body under that id 409 {@code BATCH_ID_CONFLICT}; bad
 * bodies 400 with a stable code and no batch; describe, list (newest first) and cancel;
 * 404 {@code BATCH_NOT_FOUND}. The access rules are in
 * {@link MutatingEndpointsDisabledByDefaultTest} and {@link RequiredRoleSecurityTest},
 * with the other operations.
 */
class BatchRestTest extends RestApiTestSupport {

	private static final String ORDER = "{\"item\":\"tea\",\"quantity\":2}";

	@Autowired
	private WorkflowClient client;

	private void order(String workflowId) throws Exception {
		this.mvc
			.perform(json(post("/durable/workflows"),
					"{\"type\":\"order\",\"workflowId\":\"" + workflowId + "\",\"input\":" + ORDER + "}"))
			.andExpect(status().isCreated());
	}

	private String state(String batchId) throws Exception {
		return this.mvc.perform(get("/durable/batches/" + batchId)).andReturn().getResponse().getContentAsString();
	}

	@Test
	void aSignalBatchStartsOnceAndReportsItsProgress() throws Exception {
		order("brest-1");
		order("brest-2");
		String body = "{\"batchId\":\"notes-1\",\"operation\":\"SIGNAL\",\"filter\":{\"type\":\"order\","
				+ "\"status\":[\"RUNNING\"],\"workflowIdPrefix\":\"brest-\"},\"signal\":{\"name\":\"addNote\","
				+ "\"args\":[\"batch note\"]}}";

		this.mvc.perform(json(post("/durable/batches"), body))
			.andExpect(status().isAccepted())
			.andExpect(jsonPath("$.batchId").value("notes-1"))
			.andExpect(jsonPath("$.operation").value("SIGNAL"))
			.andExpect(jsonPath("$.filter.type").value("order"))
			.andExpect(jsonPath("$.filter.status[0]").value("RUNNING"))
			.andExpect(jsonPath("$.filter.workflowIdPrefix").value("brest-"))
			.andExpect(jsonPath("$.signal.name").value("addNote"))
			.andExpect(jsonPath("$.createdAt").isNotEmpty());
		this.mvc.perform(json(post("/durable/batches"), body))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.batchId").value("notes-1"));
		problem(json(post("/durable/batches"), body.replace("batch note", "another note")), 409, "BATCH_ID_CONFLICT");

		await().atMost(Duration.ofSeconds(30)).until(() -> state("notes-1").contains("\"state\":\"COMPLETED\""));
		this.mvc.perform(get("/durable/batches/notes-1"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.total").value(2))
			.andExpect(jsonPath("$.processed").value(2))
			.andExpect(jsonPath("$.succeeded").value(2))
			.andExpect(jsonPath("$.skipped").value(0))
			.andExpect(jsonPath("$.failed").value(0))
			.andExpect(jsonPath("$.recentFailures").isEmpty())
			.andExpect(jsonPath("$.closedAt").isNotEmpty());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/workflows/brest-1/queries/notes"))
			.andExpect(content().json("[\"batch note\"]")));
		this.mvc.perform(get("/durable/workflows/brest-2/queries/notes")).andExpect(content().json("[\"batch note\"]"));
		this.mvc.perform(get("/durable/batches?limit=100"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.batchId == 'notes-1')].state").value("COMPLETED"));
	}

	@Test
	void aTerminateBatchByQueryAndACanceledBatch() throws Exception {
		order("bq-1");
		this.mvc
			.perform(json(post("/durable/batches"), "{\"batchId\":\"term-q\",\"operation\":\"terminate\","
					+ "\"filter\":{\"workflowIdPrefix\":\"bq-\",\"query\":\"customer = 'c''1' AND amount >= 5\"},"
					+ "\"reason\":\"cleanup\"}"))
			.andExpect(status().isAccepted())
			.andExpect(jsonPath("$.filter.query").value("customer = 'c''1' AND amount >= 5"))
			.andExpect(jsonPath("$.reason").value("cleanup"));
		await().atMost(Duration.ofSeconds(30)).until(() -> state("term-q").contains("\"state\":\"COMPLETED\""));
		// no run has those search attributes: nothing matched, the order still runs
		this.mvc.perform(get("/durable/batches/term-q")).andExpect(jsonPath("$.total").value(0));
		this.mvc.perform(get("/durable/workflows/bq-1")).andExpect(jsonPath("$.status").value("RUNNING"));

		this.mvc.perform(post("/durable/batches/term-q/cancel"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.state").value("COMPLETED"));
		this.mvc
			.perform(json(post("/durable/batches"),
					"{\"batchId\":\"reset-all\",\"operation\":\"RESET\","
							+ "\"filter\":{\"workflowIdPrefix\":\"nobody-\"},\"resetTo\":\"FIRST_WORKFLOW_TASK\"}"))
			.andExpect(status().isAccepted())
			.andExpect(jsonPath("$.resetTo").value("FIRST_WORKFLOW_TASK"));
		problem(post("/durable/batches/nope/cancel"), 404, "BATCH_NOT_FOUND");
		problem(get("/durable/batches/nope"), 404, "BATCH_NOT_FOUND");
	}

	@Test
	void badBatchesAreRefusedAndStartNothing() throws Exception {
		int before = this.client.listBatches(1000).size();
		problem(json(post("/durable/batches"), "{\"operation\":\"FREEZE\",\"filter\":{\"type\":\"order\"}}"), 400,
				"INVALID_BATCH");
		problem(json(post("/durable/batches"), "{\"filter\":{\"type\":\"order\"}}"), 400, "INVALID_BATCH");
		problem(json(post("/durable/batches"), "{\"operation\":\"SIGNAL\",\"filter\":{\"type\":\"order\"}}"), 400,
				"INVALID_BATCH");
		problem(json(post("/durable/batches"),
				"{\"operation\":\"SIGNAL\",\"filter\":{\"type\":\"order\"},\"signal\":{\"args\":[1]}}"), 400,
				"INVALID_BATCH");
		problem(json(post("/durable/batches"),
				"{\"operation\":\"SIGNAL\",\"filter\":{\"type\":\"order\"},\"signal\":{\"name\":\"a\",\"args\":[1,2]}}"),
				400, "INVALID_BATCH");
		problem(json(post("/durable/batches"), "{\"operation\":\"CANCEL\",\"filter\":{\"status\":[\"SLEEPING\"]}}"),
				400, "INVALID_BATCH");
		problem(json(post("/durable/batches"), "{\"operation\":\"CANCEL\",\"filter\":{\"query\":\"amount >>\"}}"), 400,
				"INVALID_BATCH");
		problem(json(post("/durable/batches"), "{\"operation\":\"CANCEL\",\"filter\":{\"startedFrom\":\"yesterday\"}}"),
				400, "INVALID_BATCH");
		problem(json(post("/durable/batches"), "{\"operation\":\"CANCEL\",\"filter\":{\"colour\":\"red\"}}"), 400,
				"INVALID_BATCH");
		problem(json(post("/durable/batches"), "{\"operation\":\"CANCEL\",\"filter\":{\"type\":\"order\"},\"x\":1}"),
				400, "INVALID_BATCH");
		problem(json(post("/durable/batches"), "{\"operation\":\"RESET\",\"filter\":{\"type\":\"order\"}}"), 400,
				"INVALID_BATCH");
		problem(json(post("/durable/batches"),
				"{\"operation\":\"CANCEL\",\"filter\":{\"type\":\"order\"},\"resetTo\":\"LAST_WORKFLOW_TASK\"}"), 400,
				"INVALID_BATCH");
		problem(json(post("/durable/batches"), "{\"operation\":\"TERMINATE\",\"filter\":{}}"), 400, "EMPTY_FILTER");
		problem(json(post("/durable/batches"), "{\"operation\":\"TERMINATE\"}"), 400, "EMPTY_FILTER");
		problem(json(post("/durable/batches"), "{\"operation\":\"TERMINATE\",\"confirmAll\":\"yes\"}"), 400,
				"INVALID_BATCH");
		problem(json(post("/durable/batches"),
				"{\"batchId\":\"no spaces\",\"operation\":\"CANCEL\",\"filter\":{\"type\":\"order\"}}"), 400,
				"INVALID_ID");
		problem(json(post("/durable/batches"), "[1]"), 400, "INVALID_BATCH");
		problem(post("/durable/batches").contentType("text/plain").content("cancel"), 415, "INVALID_PAYLOAD");
		problem(get("/durable/batches?limit=0"), 400, "INVALID_PAYLOAD");
		assertThat(this.client.listBatches(1000)).hasSize(before);

		// "confirmAll" lets an empty filter through (here to the id check, so nothing
		// starts)
		problem(json(post("/durable/batches"),
				"{\"batchId\":\"bad id\",\"operation\":\"TERMINATE\",\"filter\":{}," + "\"confirmAll\":true}"), 400,
				"INVALID_ID");
		assertThat(this.client.listBatches(1000)).hasSize(before);
	}

}
