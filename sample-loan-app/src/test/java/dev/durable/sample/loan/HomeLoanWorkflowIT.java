package dev.durable.sample.loan;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.awaitility.Awaitility;
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

import dev.durable.workflow.autoconfigure.embedded.EmbeddedPostgresServer;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample end to end: the application on its embedded PostgreSQL (a fresh data
 * directory under {@code target/} and a free port), loans started over HTTP (with
 * transient faults injected and retried) and followed to their end, a bad SSN found in
 * the search and fixed over HTTP.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.embedded-postgres.data-directory=target/it-${random.uuid}/pgdata",
				"durable.workflow.embedded-postgres.port=0", "loan.closing-waiting-period=PT1S",
				"loan.simulated-work=PT0.02S", "loan.transient-failure-rate=0.2", "loan.retry.initial-interval=PT0.1S",
				"loan.retry.maximum-attempts=20" })
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
			.uri("/api/workflows")
			.contentType(MediaType.APPLICATION_JSON)
			.body(application("loan-" + UUID.randomUUID(), "123-45-6789", new BigDecimal("185000")))
			.retrieve()
			.toEntity(JSON);
		assertThat(started.getStatusCode()).isEqualTo(HttpStatus.CREATED);
		String workflowId = (String) started.getBody().get("workflowId");
		assertThat(workflowId).startsWith("loan-");
		assertThat(started.getBody().get("runId")).isNotNull();
		assertThat(started.getHeaders().getLocation()).hasPath("/api/workflows/" + workflowId);

		WorkflowHandle<LoanResult> handle = this.client.handle(workflowId, LoanResult.class);
		LoanResult result = handle.result(RESULT_TIMEOUT);
		assertThat(result.status()).isEqualTo(LoanStatus.CLOSED);
		assertThat(result.loanNumber()).startsWith("HL-");
		assertThat(result.interestRate()).isPositive();
		assertThat(result.completedActivities()).containsExactly("verifyIncome", "checkCredit", "orderAppraisal",
				"searchTitle", "underwrite", "closeLoan");
		assertThat(handle.history()).extracting(HistoryEvent::type).contains("TIMER_STARTED", "TIMER_FIRED");

		Map<String, Object> view = http().get().uri("/api/workflows/{id}", workflowId).retrieve().body(JSON);
		assertThat(view).extractingByKey("workflow")
			.asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("status", "COMPLETED")
			.containsEntry("workflowType", "home-loan");
		assertThat(view).extractingByKey("result")
			.asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("status", "CLOSED")
			.containsEntry("loanNumber", result.loanNumber());
	}

	@Test
	void startsTheExampleLoanWithoutABodyAndWaitsForItOverHttp() {
		Map<String, Object> started = http().post().uri("/api/workflows").retrieve().body(JSON);
		String workflowId = (String) started.get("workflowId");
		Map<String, Object> view = http().get().uri("/api/workflows/{id}?wait=PT60S", workflowId).retrieve().body(JSON);
		assertThat(view).extractingByKey("result")
			.asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("status", "CLOSED");
	}

	@Test
	void deniesALoanTheIncomeCannotCarry() {
		String workflowId = "loan-" + UUID.randomUUID();
		http().post()
			.uri("/api/workflows")
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
	void pausesALoanWithABadSsnUntilItIsFixedOverHttp() {
		String workflowId = "loan-" + UUID.randomUUID();
		http().post()
			.uri("/api/workflows")
			.contentType(MediaType.APPLICATION_JSON)
			.body(application(workflowId, "not-an-ssn", new BigDecimal("185000")))
			.retrieve()
			.toBodilessEntity();
		Awaitility.await().atMost(RESULT_TIMEOUT).until(() -> {
			Map<String, Object> found = http().get()
				.uri("/api/workflows/search?status=PENDING_FIX&failedActivity=checkCredit")
				.retrieve()
				.body(JSON);
			return ((List<?>) found.get("loans")).stream()
				.anyMatch((loan) -> workflowId.equals(((Map<?, ?>) loan).get("workflowId")));
		});
		Map<String, Object> view = http().get().uri("/api/workflows/{id}", workflowId).retrieve().body(JSON);
		assertThat(view).extractingByKey("state")
			.asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("status", "PENDING_FIX")
			.containsEntry("failedActivity", "checkCredit");

		http().post()
			.uri("/api/workflows/{id}/fix", workflowId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("key", "ssn", "value", "123-45-6789"))
			.retrieve()
			.toBodilessEntity();
		LoanResult result = this.client.handle(workflowId, LoanResult.class).result(RESULT_TIMEOUT);
		assertThat(result.status()).isEqualTo(LoanStatus.CLOSED);
		assertThat(result.fixHistory()).singleElement().satisfies((fix) -> {
			assertThat(fix.field()).isEqualTo("ssn");
			assertThat(fix.oldValue()).isEqualTo("not-an-ssn");
		});
		Map<String, Object> all = http().get().uri("/api/workflows").retrieve().body(JSON);
		assertThat((List<?>) all.get("loans")).anySatisfy((loan) -> {
			assertThat(((Map<?, ?>) loan).get("workflowId")).isEqualTo(workflowId);
			assertThat(((Map<?, ?>) loan).get("loanStatus")).isEqualTo("CLOSED");
		});
	}

	@Test
	void rejectsAFixOfAnUnknownField() {
		ResponseEntity<Void> response = http().post()
			.uri("/api/workflows/{id}/fix", "whatever")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("key", "shoeSize", "value", "42"))
			.retrieve()
			.onStatus((status) -> true, (request, res) -> {
			})
			.toBodilessEntity();
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
	}

	@Test
	void answersNotFoundForAnUnknownLoan() {
		ResponseEntity<Void> response = http().get()
			.uri("/api/workflows/{id}", "no-such-loan")
			.retrieve()
			.onStatus((status) -> true, (request, res) -> {
			})
			.toBodilessEntity();
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
	}

	private static LoanApplication application(String id, String ssn, BigDecimal income) {
		return new LoanApplication(id, "Grace Hopper", ssn, "US Navy", income, "1 Main St", "P-7",
				new BigDecimal("300000"), new BigDecimal("75000"), null);
	}

}
