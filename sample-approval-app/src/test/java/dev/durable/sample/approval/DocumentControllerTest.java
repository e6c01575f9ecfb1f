package dev.durable.sample.approval;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

import org.assertj.core.data.TemporalUnitOffset;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.test.TimeSkipper;
import dev.durable.workflow.test.spring.DurableWorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The application's API on the time-skipping clock ({@code @DurableWorkflowTest}), with
 * its rules from configuration: submit, read the state, decide through the update (a
 * wrong approver gets 422), escalate, resubmit.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "approval.sla=6h", "approval.backup-sla=3h", "approval.reminder-interval=2h",
				"approval.resubmission-window=1d", "approval.approvers.primary=dana@example.com",
				"approval.approvers.backup=erin@example.com" })
@DurableWorkflowTest
class DocumentControllerTest {

	/**
	 * The activities' real time counts on the test clock (a few ms on top of the timers).
	 */
	private static final TemporalUnitOffset ACTIVITY_TIME = within(10, ChronoUnit.SECONDS);

	private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	@LocalServerPort
	int port;

	@Autowired
	WorkflowClient client;

	@Autowired
	TimeSkipper time;

	@Test
	void submitsEscalatesAndIsApprovedByTheBackupOverHttp() {
		Instant start = this.time.currentTime();
		String id = submit("doc-http-1");

		Map<String, Object> state = state(id);
		assertThat(state.get("status")).isEqualTo("AWAITING_PRIMARY");
		assertThat(state.get("currentApprover")).isEqualTo("dana@example.com");
		assertThat(Instant.parse((String) state.get("deadline"))).isCloseTo(start.plus(Duration.ofHours(6)),
				ACTIVITY_TIME);

		ResponseEntity<Map<String, Object>> wrong = decide(id, "erin@example.com", true);
		assertThat(wrong.getStatusCode()).isEqualTo(HttpStatus.UNPROCESSABLE_CONTENT);
		assertThat(wrong.getBody()).containsEntry("code", "UPDATE_REJECTED");
		assertThat(wrong.getBody().get("detail").toString()).contains("not the approver");

		this.time.sleep(Duration.ofHours(7));
		state = state(id);
		assertThat(state.get("status")).isEqualTo("ESCALATED");
		assertThat(state.get("currentApprover")).isEqualTo("erin@example.com");
		assertThat(state.get("remindersSent")).isEqualTo(2); // dana at 2 and 4 hours

		ResponseEntity<Map<String, Object>> decided = decide(id, "erin@example.com", true);
		assertThat(decided.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(decided.getBody()).containsEntry("approved", true).containsEntry("stage", "BACKUP");

		ApprovalState result = this.client.handle(id, ApprovalState.class).result();
		assertThat(result.status()).isEqualTo(DocumentStatus.APPROVED);
		assertThat(state(id).get("status")).isEqualTo("APPROVED"); // the query also reads
																	// a closed run
	}

	@Test
	void aRejectedDocumentIsResubmittedOverHttp() {
		String id = submit("doc-http-2");
		ResponseEntity<Map<String, Object>> rejected = http().post()
			.uri("/api/documents/{id}/decision", id)
			.contentType(MediaType.APPLICATION_JSON)
			.body(ApprovalDecision.reject("dana@example.com", "add the budget", true))
			.retrieve()
			.toEntity(JSON);
		assertThat(rejected.getBody()).containsEntry("approved", false);
		assertThat(this.client.handle(id, ApprovalState.class).query(ApprovalWorkflow::state).status())
			.isEqualTo(DocumentStatus.AWAITING_RESUBMISSION);

		ResponseEntity<Map<String, Object>> resubmitted = http().post()
			.uri("/api/documents/{id}/resubmission", id)
			.contentType(MediaType.APPLICATION_JSON)
			.body(new DocumentSubmission(null, "Budget 2027", "carol@example.com", "with the budget"))
			.retrieve()
			.toEntity(JSON);
		assertThat(resubmitted.getBody()).containsEntry("resubmission", 1);
		this.time.awaitQuiet();
		assertThat(decide(id, "dana@example.com", true).getStatusCode()).isEqualTo(HttpStatus.OK);

		ApprovalState result = this.client.handle(id, ApprovalState.class).result();
		assertThat(result.status()).isEqualTo(DocumentStatus.APPROVED);
		assertThat(result.resubmissionCount()).isEqualTo(1);
		assertThat(result.submission().content()).isEqualTo("with the budget");
	}

	@Test
	void aDecisionNeedsOnlyTheApproverAndTheVerdict() {
		String id = submit("doc-http-3");
		ResponseEntity<Map<String, Object>> decided = http().post()
			.uri("/api/documents/{id}/decision", id)
			.contentType(MediaType.APPLICATION_JSON)
			.body("{\"approver\":\"dana@example.com\",\"approved\":false}")
			.retrieve()
			.toEntity(JSON);
		assertThat(decided.getBody()).containsEntry("approved", false);
		ApprovalState result = this.client.handle(id, ApprovalState.class).result();
		assertThat(result.status()).isEqualTo(DocumentStatus.REJECTED); // no resubmission
																		// unless allowed
	}

	@Test
	void unknownDocumentsAre404() {
		ResponseEntity<Map<String, Object>> response = http().get()
			.uri("/api/documents/no-such-document")
			.retrieve()
			.onStatus((status) -> true, (request, resp) -> {
			})
			.toEntity(JSON);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
	}

	private String submit(String id) {
		ResponseEntity<Map<String, Object>> response = http().post()
			.uri("/api/documents")
			.contentType(MediaType.APPLICATION_JSON)
			.body(new DocumentSubmission(id, "Budget 2027", "carol@example.com", "the budget"))
			.retrieve()
			.toEntity(JSON);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.CREATED);
		assertThat(response.getHeaders().getLocation()).hasPath("/api/documents/" + id);
		this.time.awaitQuiet(); // stored, and the approver notified
		return (String) response.getBody().get("documentId");
	}

	private Map<String, Object> state(String id) {
		return http().get().uri("/api/documents/{id}", id).retrieve().body(JSON);
	}

	private ResponseEntity<Map<String, Object>> decide(String id, String approver, boolean approved) {
		return http().post()
			.uri("/api/documents/{id}/decision", id)
			.contentType(MediaType.APPLICATION_JSON)
			.body(new ApprovalDecision(approver, approved, "ok", false))
			.retrieve()
			.onStatus((status) -> true, (request, response) -> {
			})
			.toEntity(JSON);
	}

	private RestClient http() {
		return RestClient.create("http://localhost:" + this.port);
	}

}
