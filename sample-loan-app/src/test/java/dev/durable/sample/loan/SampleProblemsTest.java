package dev.durable.sample.loan;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import dev.durable.workflow.test.spring.DurableWorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loan API answers errors as the generated {@code /durable} endpoints do: problem
 * details with a stable {@code code}, and no class name in any body.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "loan.simulated-work=0s", "loan.transient-failure-rate=0" })
@DurableWorkflowTest
class SampleProblemsTest {

	@LocalServerPort
	int port;

	@Test
	void errorsAreProblemsWithTheGeneratedApisCodes() {
		String loan = "{\"applicationId\":\"loan-problems-1\",\"applicantName\":\"Ada Lovelace\"}";
		assertThat(send(HttpMethod.POST, "/api/workflows", MediaType.APPLICATION_JSON, loan).getStatusCode())
			.isEqualTo(HttpStatus.CREATED);

		problem(send(HttpMethod.POST, "/api/workflows", MediaType.APPLICATION_JSON, loan), 409,
				"WORKFLOW_ALREADY_STARTED");
		problem(send(HttpMethod.GET, "/api/workflows/no-such-loan", null, null), 404, "WORKFLOW_NOT_FOUND");
		problem(send(HttpMethod.GET, "/api/workflows/bad id!", null, null), 400, "INVALID_ID");
		problem(send(HttpMethod.GET, "/api/workflows/loan-problems-1?wait=forever", null, null), 400,
				"INVALID_PAYLOAD");
		problem(send(HttpMethod.GET, "/api/workflows/search?status=SLEEPING", null, null), 400, "INVALID_PAYLOAD");
		// a NUL character reaches the database through the search: refused by it, a 400
		// all the same
		problem(send(HttpMethod.GET, "/api/workflows/search?applicant=Ada%00", null, null), 400, "INVALID_PAYLOAD");
		problem(send(HttpMethod.GET, "/api/workflows?pageSize=many", null, null), 400, "INVALID_PAYLOAD");
		problem(send(HttpMethod.POST, "/api/workflows", MediaType.APPLICATION_JSON, "{"), 400, "INVALID_PAYLOAD");
		problem(send(HttpMethod.POST, "/api/workflows", MediaType.APPLICATION_JSON, "{\"loanAmount\":\"lots\"}"), 400,
				"INVALID_PAYLOAD");
		problem(send(HttpMethod.POST, "/api/workflows", MediaType.TEXT_PLAIN, loan), 415, "INVALID_PAYLOAD");
		problem(send(HttpMethod.POST, "/api/workflows/loan-problems-1/fix", MediaType.APPLICATION_JSON,
				"{\"key\":\"favouriteColour\",\"value\":\"blue\"}"), 400, "INVALID_PAYLOAD");
		problem(send(HttpMethod.POST, "/api/workflows/no-such-loan/fix", MediaType.APPLICATION_JSON,
				"{\"key\":\"ssn\",\"value\":\"1\"}"), 404, "WORKFLOW_NOT_FOUND");
	}

	private ResponseEntity<String> send(HttpMethod method, String path, MediaType contentType, String body) {
		RestClient.RequestBodySpec request = RestClient.create()
			.method(method)
			.uri(URI.create("http://localhost:" + this.port + path.replace(" ", "%20")));
		if (contentType != null) {
			request.contentType(contentType).body(body);
		}
		return request.retrieve().onStatus((status) -> true, (req, resp) -> {
		}).toEntity(String.class);
	}

	private static void problem(ResponseEntity<String> response, int status, String code) {
		assertThat(response.getStatusCode().value()).as(response.getBody()).isEqualTo(status);
		assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
		assertThat(response.getBody()).contains("\"code\":\"" + code + "\"").contains("\"detail\":");
		// a rejected update's "failure" is what the application's validator threw (its
		// type is the
		// application's own exception class); the rest is the API's and names no class
		String own = response.getBody().replaceAll(",\"failure\":\\{.*\\}}$", "}");
		for (String leak : List.of("dev.durable", "java.", "$", "Exception", "\tat ")) {
			assertThat(own).doesNotContain(leak);
		}
	}

}
