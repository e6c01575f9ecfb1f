package dev.durable.sample.loan;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import dev.durable.workflow.test.spring.DurableWorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample serves its OpenAPI document, with the loan workflow's operations, and
 * Swagger UI.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "loan.simulated-work=0s", "loan.transient-failure-rate=0" })
@DurableWorkflowTest
class ApiDocumentationTest {

	@LocalServerPort
	int port;

	@Test
	void theOpenApiDocumentDescribesTheLoanWorkflowAndSwaggerUiIsServed() {
		RestClient http = RestClient.builder().baseUrl("http://localhost:" + this.port).build();
		ResponseEntity<String> document = http.get().uri("/v3/api-docs").retrieve().toEntity(String.class);
		assertThat(document.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(document.getBody()).contains("\"StartRequest.home-loan\"",
				"\"/durable/workflows/{workflowId}/signals/fix\"", "\"/durable/workflows/{workflowId}/queries/state\"",
				"\"/api/workflows\"");

		ResponseEntity<String> ui = http.get().uri("/swagger-ui/index.html").retrieve().toEntity(String.class);
		assertThat(ui.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(ui.getBody()).contains("swagger-ui");
	}

}
