package dev.durable.workflow.autoconfigure.tracing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.tracing.test.autoconfigure.AutoConfigureTracing;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.durable.workflow.autoconfigure.actuate.WorkflowObservationInterceptor;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A trace that starts at an HTTP request continues through the run it starts: a REST
 * start carrying a W3C {@code traceparent} runs its activities with that trace id in
 * their MDC (Boot's Brave tracing, the observation interceptor), and the request's MDC
 * entries named by {@code durable.workflow.propagation.mdc-keys} reach them too.
 */
@AutoConfigureTracing
@SpringBootTest(classes = TracingApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "durable.workflow.schema=tracing", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms", "management.tracing.sampling.probability=1.0",
				"durable.workflow.propagation.mdc-keys=tenant" })
class TracePropagationTest {

	private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

	@LocalServerPort
	private int port;

	@Autowired
	private WorkflowClient client;

	@Autowired
	private WorkflowObservationInterceptor interceptor;

	@Test
	void aTraceIdFromARestStartReachesTheActivitiesMdc() throws Exception {
		TracingApplication.SEEN.clear();
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/durable/workflows"))
				.header("Content-Type", "application/json")
				.header("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01")
				.header("X-Tenant", "acme")
				.POST(HttpRequest.BodyPublishers
					.ofString("{\"type\":\"booking\",\"workflowId\":\"booking-1\",\"input\":\"rent\"}"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
		assertThat(this.client.handle("booking-1").result(String.class)).isEqualTo("booked rent, booked rent-again");
		assertThat(TracingApplication.SEEN).hasSize(2).allSatisfy((mdc) -> {
			assertThat(mdc.get("traceId")).isEqualTo(TRACE_ID);
			assertThat(mdc.get("spanId")).isNotEqualTo("00f067aa0ba902b7").isNotEqualTo("null");
			assertThat(mdc.get("tenant")).isEqualTo("acme");
		});
		// each attempt is a span of its own in the trace
		assertThat(TracingApplication.SEEN.get(0).get("spanId"))
			.isNotEqualTo(TracingApplication.SEEN.get(1).get("spanId"));
		assertThat(this.interceptor).isNotNull();
	}

	@Test
	void aStartWithoutTraceRunsItsActivitiesInATraceOfItsOwn() throws Exception {
		TracingApplication.SEEN.clear();
		assertThat(this.client.start("booking", "solo", StartOptions.withId("booking-2")).result(String.class))
			.isEqualTo("booked solo, booked solo-again");
		assertThat(TracingApplication.SEEN).hasSize(2).allSatisfy((mdc) -> {
			assertThat(mdc.get("traceId")).isNotEqualTo("null").isNotEqualTo(TRACE_ID);
			assertThat(mdc.get("tenant")).isEqualTo("null");
		});
		// the start's client span is the parent of both: one trace
		assertThat(TracingApplication.SEEN.get(0).get("traceId"))
			.isEqualTo(TracingApplication.SEEN.get(1).get("traceId"));
	}

}
