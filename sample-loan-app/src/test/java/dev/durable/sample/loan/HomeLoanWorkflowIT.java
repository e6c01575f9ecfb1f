package dev.durable.sample.loan;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

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

import dev.durable.workflow.autoconfigure.EmbeddedPostgresServer;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The sample end to end: the application on its embedded PostgreSQL (a fresh data directory
 * under {@code target/} and a free port), loans started over HTTP and followed to their end.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.embedded-postgres.data-directory=target/it-${random.uuid}/pgdata",
				"durable.workflow.embedded-postgres.port=0", "loan.closing-waiting-period=PT1S",
				"loan.simulated-work=PT0.02S" })
class HomeLoanWorkflowIT {

	private static final Duration RESULT_TIMEOUT = Duration.ofSeconds(60);

	private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	@LocalServerPort
	int port;

	@Autowired
	WorkflowClient client;

	@Autowired
	EmbeddedPostgresServer postgres;

	private RestClient http() {
		return RestClient.create("http://localhost:" + this.port);
	}

	@Test
	void runsOnTheEmbeddedServer() {
		assertThat(this.postgres.getDataDirectory().toString()).contains("it-");
		assertThat(this.postgres.getDataDirectory().resolve("PG_VERSION")).exists();
	}

	@Test
	void startsALoanOverHttpAndClosesIt() {
		ResponseEntity<Map<String, Object>> started = http().post()
			.uri("/api/loans")
			.contentType(MediaType.APPLICATION_JSON)
			.body(application("loan-" + UUID.randomUUID(), "123-45-6789", new BigDecimal("185000")))
			.retrieve()
			.toEntity(JSON);
		assertThat(started.getStatusCode()).isEqualTo(HttpStatus.CREATED);
		String workflowId = (String) started.getBody().get("workflowId");
		assertThat(workflowId).startsWith("loan-");
		assertThat(started.getBody().get("runId")).isNotNull();
		assertThat(started.getHeaders().getLocation()).hasPath("/api/loans/" + workflowId);

		WorkflowHandle<LoanResult> handle = this.client.handle(workflowId, LoanResult.class);
		LoanResult result = handle.result(RESULT_TIMEOUT);
		assertThat(result.status()).isEqualTo(LoanStatus.CLOSED);
		assertThat(result.loanNumber()).startsWith("HL-");
		assertThat(result.interestRate()).isPositive();
		assertThat(result.completedActivities()).containsExactly("verifyIncome", "checkCredit", "orderAppraisal",
				"searchTitle", "underwrite", "closeLoan");
		assertThat(handle.history()).extracting(HistoryEvent::type).contains("TIMER_STARTED", "TIMER_FIRED");

		Map<String, Object> view = http().get().uri("/api/loans/{id}", workflowId).retrieve().body(JSON);
		assertThat(view).extractingByKey("workflow").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsEntry("status", "COMPLETED")
			.containsEntry("workflowType", "home-loan");
		assertThat(view).extractingByKey("result").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsEntry("status", "CLOSED")
			.containsEntry("loanNumber", result.loanNumber());
	}

	@Test
	void startsTheExampleLoanWithoutABodyAndWaitsForItOverHttp() {
		Map<String, Object> started = http().post().uri("/api/loans").retrieve().body(JSON);
		String workflowId = (String) started.get("workflowId");
		Map<String, Object> view = http().get().uri("/api/loans/{id}?wait=PT60S", workflowId).retrieve().body(JSON);
		assertThat(view).extractingByKey("result").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsEntry("status", "CLOSED");
	}

	@Test
	void deniesALoanTheIncomeCannotCarry() {
		String workflowId = "loan-" + UUID.randomUUID();
		http().post()
			.uri("/api/loans")
			.contentType(MediaType.APPLICATION_JSON)
			.body(application(workflowId, "123-45-6789", new BigDecimal("30000")))
			.retrieve()
			.toBodilessEntity();
		LoanResult result = this.client.handle(workflowId, LoanResult.class).result(RESULT_TIMEOUT);
		assertThat(result.status()).isEqualTo(LoanStatus.DENIED);
		assertThat(result.reason()).contains("debt-to-income");
		assertThat(result.loanNumber()).isNull();
		assertThat(result.completedActivities()).doesNotContain("closeLoan");
	}

	@Test
	void failsALoanWhoseDataCannotBeVerified() {
		String workflowId = "loan-" + UUID.randomUUID();
		http().post()
			.uri("/api/loans")
			.contentType(MediaType.APPLICATION_JSON)
			.body(application(workflowId, "not-an-ssn", new BigDecimal("185000")))
			.retrieve()
			.toBodilessEntity();
		assertThatExceptionOfType(WorkflowFailedException.class)
			.isThrownBy(() -> this.client.handle(workflowId, LoanResult.class).result(RESULT_TIMEOUT))
			.withMessageContaining("not-an-ssn");
		Map<String, Object> view = http().get().uri("/api/loans/{id}", workflowId).retrieve().body(JSON);
		assertThat(view).extractingByKey("workflow").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
			.containsEntry("status", "FAILED");
		assertThat((String) view.get("failure")).contains("credit bureau knows no SSN");
	}

	@Test
	void answersNotFoundForAnUnknownLoan() {
		ResponseEntity<Void> response = http().get()
			.uri("/api/loans/{id}", "no-such-loan")
			.retrieve()
			.onStatus((status) -> true, (request, res) -> {
			})
			.toBodilessEntity();
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
	}

	private static HomeLoanApplication application(String id, String ssn, BigDecimal income) {
		return new HomeLoanApplication(id, "Grace Hopper", ssn, "US Navy", income, "1 Main St", "P-7",
				new BigDecimal("300000"), new BigDecimal("75000"), null);
	}

}
