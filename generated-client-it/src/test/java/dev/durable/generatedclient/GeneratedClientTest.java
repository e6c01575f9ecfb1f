package dev.durable.generatedclient;

import java.nio.file.Path;
import java.time.Duration;

import com.example.tickets.client.ApiClient;
import com.example.tickets.client.ApiResponse;
import com.example.tickets.client.api.BatchesApi;
import com.example.tickets.client.api.WorkflowsApi;
import com.example.tickets.client.model.Batch;
import com.example.tickets.client.model.BatchFilter;
import com.example.tickets.client.model.BatchRequest;
import com.example.tickets.client.model.BatchSignal;
import com.example.tickets.client.model.Resolution;
import com.example.tickets.client.model.StartRequestTicket;
import com.example.tickets.client.model.Started;
import com.example.tickets.client.model.Ticket;
import com.example.tickets.client.model.UpdateOutcome200Response;
import com.example.tickets.client.model.WorkflowResult200Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Drives the REST API through a Java client that openapi-generator generated, at build
 * time, from the running application's OpenAPI document (see this module's pom): what a
 * team on another stack does first. Every call here is the generated client's; none is
 * written by hand.
 */
class GeneratedClientTest {

	private static ConfigurableApplicationContext application;

	private static WorkflowsApi workflows;

	private static BatchesApi batches;

	@BeforeAll
	static void startTheApplication(@TempDir Path directory) {
		application = TicketsServer.builder(directory.resolve("pgdata")).run();
		ApiClient client = new ApiClient();
		client
			.updateBaseUri("http://localhost:" + application.getEnvironment().getRequiredProperty("local.server.port"));
		workflows = new WorkflowsApi(client);
		batches = new BatchesApi(client);
	}

	@AfterAll
	static void stopTheApplication() {
		if (application != null) {
			application.close();
		}
	}

	@Test
	void aTicketIsStartedSignalledQueriedUpdatedAndResolved() throws Exception {
		Started started = workflows.startWorkflow(new StartRequestTicket().type(StartRequestTicket.TypeEnum.TICKET)
			.workflowId("ticket-1")
			.input(new Ticket().title("Printer jam").priority(4)), null);
		assertThat(started.getWorkflowId()).isEqualTo("ticket-1");
		assertThat(started.getRunId()).isNotNull();

		// string payloads, sent as the generated client sends them (the text itself),
		// including ones that would also read as JSON
		workflows.signalAddNote("ticket-1", "toner is \"low\"", null, null);
		workflows.signalAddNote("ticket-1", "123", null, null);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(workflows.queryNotes("ticket-1", null)).containsExactly("toner is \"low\"",
					"123"));

		UpdateOutcome200Response reassigned = workflows.updateReassign("ticket-1", "alice", null, null, null);
		assertThat(reassigned.getStage()).isEqualTo(UpdateOutcome200Response.StageEnum.COMPLETED);
		assertThat(reassigned.getResult()).isEqualTo("on-call");

		ApiResponse<WorkflowResult200Response> open = workflows.workflowResultWithHttpInfo("ticket-1", null, "PT0S");
		assertThat(open.getStatusCode()).isEqualTo(202);
		assertThat(open.getData().getStatus()).isEqualTo(WorkflowResult200Response.StatusEnum.RUNNING);

		workflows.signalResolve("ticket-1", null, null);
		WorkflowResult200Response closed = workflows.workflowResult("ticket-1", null, "PT30S");
		assertThat(closed.getStatus()).isEqualTo(WorkflowResult200Response.StatusEnum.COMPLETED);
		assertThat(closed.getResult()).isEqualTo(new Resolution().title("Printer jam")
			.assignee("alice")
			.notes(java.util.List.of("toner is \"low\"", "123")));
	}

	@Test
	void aTicketIsCancelledAndABatchResolvesTheOthers() throws Exception {
		for (String id : java.util.List.of("cancelled-1", "batch-1", "batch-2")) {
			workflows.startWorkflow(new StartRequestTicket().type(StartRequestTicket.TypeEnum.TICKET)
				.workflowId(id)
				.input(new Ticket().title("Screen " + id).priority(1)), null);
		}

		workflows.cancelWorkflow("cancelled-1", null, null);
		assertThat(workflows.workflowResult("cancelled-1", null, "PT30S").getStatus())
			.isEqualTo(WorkflowResult200Response.StatusEnum.CANCELED);

		Batch batch = batches.startBatch(new BatchRequest().operation(BatchRequest.OperationEnum.SIGNAL)
			.filter(new BatchFilter().type("ticket").workflowIdPrefix("batch-"))
			.signal(new BatchSignal().name("resolve")));
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(batches.describeBatch(batch.getBatchId()).getState())
				.isEqualTo(Batch.StateEnum.COMPLETED));
		assertThat(batches.describeBatch(batch.getBatchId()).getProcessed()).isEqualTo(2L);
		for (String id : java.util.List.of("batch-1", "batch-2")) {
			assertThat(workflows.workflowResult(id, null, "PT30S").getStatus())
				.isEqualTo(WorkflowResult200Response.StatusEnum.COMPLETED);
		}
	}

}
