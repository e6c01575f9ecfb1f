package dev.durable.sample.approval;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.durable.workflow.test.TimeSkipper;
import dev.durable.workflow.test.spring.DurableWorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit trail as Server-Sent Events from the generated stream endpoint, over real
 * HTTP: each line an event whose id is its place in the trail, the end event once the
 * approval ended, and a resumption after the last id a client got (same application as
 * DocumentControllerTest).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "approval.sla=6h", "approval.backup-sla=3h", "approval.reminder-interval=2h",
				"approval.resubmission-window=1d", "approval.approvers.primary=dana@example.com",
				"approval.approvers.backup=erin@example.com" })
@DurableWorkflowTest
class AuditTrailSseTest {

	@LocalServerPort
	int port;

	@Autowired
	TimeSkipper time;

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void theAuditTrailStreamsAsServerSentEventsAndResumesAfterTheLastId() throws Exception {
		assertThat(post("/api/documents", "{\"documentId\":\"doc-sse-1\",\"title\":\"Budget\","
				+ "\"author\":\"carol@example.com\",\"content\":\"the budget\"}"))
			.isEqualTo(201);
		this.time.awaitQuiet();
		assertThat(post("/api/documents/doc-sse-1/decision", "{\"approver\":\"dana@example.com\",\"approved\":true}"))
			.isEqualTo(200);

		List<String> all = events(null);
		assertThat(all).hasSize(5);
		assertThat(all.get(0)).startsWith("id:0 data:{")
			.contains("\"event\":\"SUBMITTED\"", "\"actor\":\"carol@example.com\"");
		assertThat(all.get(1)).startsWith("id:1 ").contains("\"event\":\"STORED\"");
		assertThat(all.get(2)).startsWith("id:2 ").contains("\"event\":\"AWAITING_PRIMARY\"");
		assertThat(all.get(3)).startsWith("id:3 ").contains("\"event\":\"APPROVED\"", "dana@example.com");
		assertThat(all.get(4)).isEqualTo("event:end data:{}");

		assertThat(events("1")).as("after the last id the client got").containsExactlyElementsOf(all.subList(2, 5));
	}

	private int post(String path, String body) throws Exception {
		return this.http
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(body))
				.build(), HttpResponse.BodyHandlers.discarding())
			.statusCode();
	}

	/**
	 * The events of the audit stream, each as its lines joined by a space, until the
	 * response ends.
	 */
	private List<String> events(String lastEventId) throws Exception {
		HttpRequest.Builder request = HttpRequest
			.newBuilder(URI.create("http://localhost:" + this.port + "/durable/workflows/doc-sse-1/streams/audit"))
			.header("Accept", "text/event-stream")
			.timeout(Duration.ofSeconds(30));
		if (lastEventId != null) {
			request.header("Last-Event-ID", lastEventId);
		}
		HttpResponse<String> response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		List<String> events = new ArrayList<>();
		for (String block : response.body().split("\n\n")) {
			if (!block.isBlank()) {
				events.add(String.join(" ", block.strip().split("\n")));
			}
		}
		return events;
	}

}
