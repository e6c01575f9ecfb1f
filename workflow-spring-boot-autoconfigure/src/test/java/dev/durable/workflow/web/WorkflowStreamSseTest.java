package dev.durable.workflow.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.web.streams.StreamsWebApplication;
import dev.durable.workflow.web.streams.TranscriptWorkflow;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Events and streams over real HTTP: a stream read as Server-Sent Events with
 * java.net.http, resumed with Last-Event-ID after a disconnect, the event endpoint's
 * wait, and bad input.
 */
@SpringBootTest(classes = StreamsWebApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.schema=web_streams", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms" })
class WorkflowStreamSseTest {

	@LocalServerPort
	private int port;

	@Autowired
	private WorkflowClient client;

	private final HttpClient http = HttpClient.newHttpClient();

	/**
	 * One server-sent event: its id (null when it has none), name ("message" by default)
	 * and data.
	 */
	record Sse(String id, String name, String data) {
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + "/durable/workflows/" + path);
	}

	private HttpResponse<Stream<String>> open(String path, String lastEventId) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Accept", "text/event-stream");
		if (lastEventId != null) {
			request.header("Last-Event-ID", lastEventId);
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
	}

	/** Reads events until {@code count} are read or the response ends. */
	private static List<Sse> read(Iterator<String> lines, int count) {
		List<Sse> events = new ArrayList<>();
		String id = null;
		String name = "message";
		StringBuilder data = new StringBuilder();
		while (events.size() < count && lines.hasNext()) {
			String line = lines.next();
			if (line.isEmpty()) {
				if (!data.isEmpty()) {
					events.add(new Sse(id, name, data.toString()));
				}
				id = null;
				name = "message";
				data.setLength(0);
			}
			else if (line.startsWith("id:")) {
				id = line.substring(3).strip();
			}
			else if (line.startsWith("event:")) {
				name = line.substring(6).strip();
			}
			else if (line.startsWith("data:")) {
				data.append(line.substring(5).strip());
			}
		}
		return events;
	}

	private HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
		return this.http.send(HttpRequest.newBuilder(uri(path)).header("Accept", accept).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	@Test
	void aClientReadsTheStreamAsServerSentEventsAndResumesWithLastEventId() throws Exception {
		WorkflowHandle<String> handle = this.client.start(TranscriptWorkflow::run, "one two three four five six",
				StartOptions.withId("sse-1"));
		List<Sse> first;
		HttpResponse<Stream<String>> response = open("sse-1/streams/words", null);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		try (Stream<String> lines = response.body()) {
			first = read(lines.iterator(), 2);
		}
		// the connection is dropped after two values: the client resumes after the last
		// id it got
		assertThat(first).extracting(Sse::id).containsExactly("0", "1");
		assertThat(first.get(0).data()).isEqualTo("{\"index\":0,\"text\":\"one\"}");

		HttpResponse<Stream<String>> resumed = open("sse-1/streams/words", first.get(1).id());
		CompletableFuture<List<Sse>> rest;
		try (Stream<String> lines = resumed.body()) {
			Iterator<String> iterator = lines.iterator();
			assertThat(read(iterator, 1)).extracting(Sse::id, Sse::data)
				.containsExactly(org.assertj.core.groups.Tuple.tuple("2", "{\"index\":2,\"text\":\"three\"}"));
			// live: the rest comes once the workflow writes it
			rest = CompletableFuture.supplyAsync(() -> read(iterator, 10));
			handle.signal("more", "go");
			assertThat(rest.get(20, java.util.concurrent.TimeUnit.SECONDS)).extracting(Sse::id, Sse::name)
				.containsExactly(org.assertj.core.groups.Tuple.tuple("3", "message"),
						org.assertj.core.groups.Tuple.tuple("4", "message"),
						org.assertj.core.groups.Tuple.tuple("5", "message"),
						org.assertj.core.groups.Tuple.tuple(null, "end"));
		}
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("one two three four five six");

		try (Stream<String> lines = open("sse-1/streams/words?from=4", null).body()) {
			assertThat(read(lines.iterator(), 10)).extracting(Sse::id)
				.as("from an offset, after the run closed")
				.containsExactly("4", "5", null);
		}
	}

	@Test
	void theEventEndpointWaitsForTheValue() throws Exception {
		WorkflowHandle<String> handle = this.client.start(TranscriptWorkflow::run, "a b", StartOptions.withId("sse-2"));
		HttpResponse<String> halfway = get("sse-2/events/status?wait=PT10S", "application/json");
		assertThat(halfway.statusCode()).isEqualTo(200);
		assertThat(halfway.body()).isEqualTo("{\"key\":\"status\",\"value\":\"halfway\"}");

		HttpResponse<String> notSet = get("sse-2/events/never?wait=PT0.2S", "application/json");
		assertThat(notSet.statusCode()).isEqualTo(404);
		assertThat(notSet.body()).contains("\"code\":\"EVENT_NOT_SET\"");

		CompletableFuture<HttpResponse<String>> done = CompletableFuture.supplyAsync(() -> {
			try {
				HttpResponse<String> answer;
				do {
					answer = get("sse-2/events/status?wait=PT10S", "application/json");
				}
				while (answer.body().contains("halfway"));
				return answer;
			}
			catch (IOException | InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		handle.signal("more", "go");
		assertThat(done.get(20, java.util.concurrent.TimeUnit.SECONDS).body())
			.isEqualTo("{\"key\":\"status\",\"value\":\"done\"}");
	}

	@Test
	void badInputIsAProblemWithAStableCode() throws Exception {
		this.client.start(TranscriptWorkflow::run, "x y", StartOptions.withId("sse-3"));
		assertProblem(get("nobody/streams/words", "text/event-stream"), 404, "WORKFLOW_NOT_FOUND");
		assertProblem(get("nobody/events/status", "application/json"), 404, "WORKFLOW_NOT_FOUND");
		assertProblem(get("sse-3/streams/words?from=-1", "text/event-stream"), 400, "INVALID_OFFSET");
		assertProblem(get("sse-3/streams/words?from=abc", "text/event-stream"), 400, "INVALID_OFFSET");
		assertProblem(this.http.send(HttpRequest.newBuilder(uri("sse-3/streams/words"))
			.header("Accept", "text/event-stream")
			.header("Last-Event-ID", "not-a-number")
			.build(), HttpResponse.BodyHandlers.ofString()), 400, "INVALID_OFFSET");
		assertProblem(get("sse-3/streams/a%20b", "text/event-stream"), 400, "INVALID_KEY");
		assertProblem(get("sse-3/events/a%20b", "application/json"), 400, "INVALID_KEY");
		assertProblem(get("sse-3/events/status?wait=-PT1S", "application/json"), 400, "INVALID_PAYLOAD");
	}

	private static void assertProblem(HttpResponse<String> response, int status, String code) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).contains("application/problem+json");
		assertThat(response.body()).contains("\"code\":\"" + code + "\"").doesNotContain("Exception");
	}

}
