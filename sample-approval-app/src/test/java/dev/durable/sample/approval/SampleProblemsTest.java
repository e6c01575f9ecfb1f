package dev.durable.sample.approval;

import java.net.URI;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import dev.durable.workflow.test.TimeSkipper;
import dev.durable.workflow.test.spring.DurableWorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The approval API answers errors as the generated {@code /durable} endpoints do: problem
 * details with a stable {@code code}, a refused decision 422 {@code UPDATE_REJECTED}, and
 * no class name in any body (same application as DocumentControllerTest).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "approval.sla=6h", "approval.backup-sla=3h", "approval.reminder-interval=2h",
				"approval.resubmission-window=1d", "approval.approvers.primary=dana@example.com",
				"approval.approvers.backup=erin@example.com" })
@DurableWorkflowTest
class SampleProblemsTest {

	private static final String SUBMISSION = "{\"documentId\":\"%s\",\"title\":\"Budget\","
			+ "\"author\":\"carol@example.com\",\"content\":\"the budget\"}";

	@LocalServerPort
	int port;

	@Autowired
	TimeSkipper time;

	@Test
	void errorsAreProblemsWithTheGeneratedApisCodes() {
		assertThat(send(HttpMethod.POST, "/api/documents", MediaType.APPLICATION_JSON,
				SUBMISSION.formatted("doc-problems-1"))
			.getStatusCode()).isEqualTo(HttpStatus.CREATED);
		this.time.awaitQuiet();

		problem(send(HttpMethod.POST, "/api/documents/doc-problems-1/decision", MediaType.APPLICATION_JSON,
				"{\"approver\":\"erin@example.com\",\"approved\":true}"), 422, "UPDATE_REJECTED");
		problem(send(HttpMethod.POST, "/api/documents", MediaType.APPLICATION_JSON,
				SUBMISSION.formatted("doc-problems-1")), 409, "WORKFLOW_ALREADY_STARTED");
		problem(send(HttpMethod.GET, "/api/documents/no-such-document", null, null), 404, "WORKFLOW_NOT_FOUND");
		problem(send(HttpMethod.GET, "/api/documents/bad id!", null, null), 400, "INVALID_ID");
		problem(send(HttpMethod.POST, "/api/documents", MediaType.APPLICATION_JSON, SUBMISSION.formatted("bad id!")),
				400, "INVALID_ID");
		problem(send(HttpMethod.POST, "/api/documents", MediaType.APPLICATION_JSON, "{"), 400, "INVALID_PAYLOAD");
		problem(send(HttpMethod.POST, "/api/documents", MediaType.TEXT_PLAIN, SUBMISSION.formatted("doc-plain")), 415,
				"INVALID_PAYLOAD");
		problem(send(HttpMethod.POST, "/api/documents/doc-problems-1/decision", MediaType.APPLICATION_JSON,
				"{\"approver\":\"dana@example.com\",\"approved\":\"maybe\"}"), 400, "INVALID_PAYLOAD");
		problem(send(HttpMethod.POST, "/api/documents/no-such-document/resubmission", MediaType.APPLICATION_JSON,
				SUBMISSION.formatted("x")), 404, "WORKFLOW_NOT_FOUND");
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
