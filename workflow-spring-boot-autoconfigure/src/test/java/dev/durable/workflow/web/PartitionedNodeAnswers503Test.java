package dev.durable.workflow.web;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import dev.durable.workflow.autoconfigure.DurableWorkflowProperties;
import dev.durable.workflow.autoconfigure.actuate.WorkflowEngineHealthIndicator;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.web.outage.OutageWebApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * While a partition drops every packet between the node and its database (nothing is
 * reset, so a statement without a timeout would wait for minutes), the generated
 * endpoints answer 503 {@code DATABASE_UNAVAILABLE} at once once the node has fenced
 * itself, with the application's pool at its defaults (30 s to wait for a connection),
 * and its health says why; healed, they answer as before.
 */
@SpringBootTest(classes = OutageWebApplication.class,
		properties = { "spring.datasource.username=postgres", "durable.workflow.schema=web_partition",
				"durable.workflow.embedded-postgres.enabled=false", "durable.workflow.worker.poll-interval=100ms",
				"durable.workflow.node.heartbeat-interval=250ms", "durable.workflow.node.dead-after=3s",
				"durable.workflow.web.operations-enabled=true" })
@Import(PartitionedNodeAnswers503Test.DatabaseStopsAfterTheEngine.class)
@DirtiesContext
class PartitionedNodeAnswers503Test {

	/**
	 * How long a request may take while partitioned: far less than any TCP or pool
	 * timeout.
	 */
	private static final Duration BOUND = Duration.ofSeconds(5);

	private static final EmbeddedPostgres postgres;

	private static final PartitionProxy proxy;

	static {
		try {
			postgres = EmbeddedPostgres.builder().start();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
		proxy = new PartitionProxy(postgres.getPort());
	}

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		registry.add("spring.datasource.url", () -> "jdbc:postgresql://127.0.0.1:" + proxy.port() + "/postgres");
	}

	@Autowired
	private WebApplicationContext context;

	@Autowired
	private WorkflowEngine engine;

	@AfterEach
	void heal() {
		proxy.heal();
	}

	private static MockHttpServletRequestBuilder json(MockHttpServletRequestBuilder request, String body) {
		return request.contentType(MediaType.APPLICATION_JSON).content(body);
	}

	/**
	 * The response, or {@code null} when it did not come within the bound (the request
	 * goes on, abandoned).
	 */
	private static MockHttpServletResponse within(MockMvc mvc, MockHttpServletRequestBuilder request) throws Exception {
		CompletableFuture<MockHttpServletResponse> response = CompletableFuture.supplyAsync(() -> {
			try {
				return mvc.perform(request).andReturn().getResponse();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}, (work) -> Thread.ofVirtual().start(work));
		try {
			return response.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			return null;
		}
	}

	private static boolean databaseUnavailable(MockHttpServletResponse response) throws Exception {
		return response != null && response.getStatus() == 503
				&& response.getContentAsString().contains("\"code\":\"DATABASE_UNAVAILABLE\"")
				&& "5".equals(response.getHeader("Retry-After"));
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void requestsAnswer503AtOnceWhileThePartitionedNodeIsFencedAndWorkAgainWhenHealed() throws Exception {
		MockMvc mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		assertThat(mvc
			.perform(json(post("/durable/workflows"), "{\"type\":\"note\",\"workflowId\":\"cut-1\",\"input\":\"a\"}"))
			.andReturn()
			.getResponse()
			.getStatus()).isEqualTo(201);
		await().until(() -> mvc.perform(get("/durable/workflows/cut-1/queries/notes"))
			.andReturn()
			.getResponse()
			.getStatus() == 200);

		proxy.partition();
		// requests under way when the lease runs out are cut short too; from then on each
		// answers at once
		await().atMost(Duration.ofSeconds(60))
			.until(() -> databaseUnavailable(within(mvc, get("/durable/workflows/cut-1"))));
		MockHttpServletRequestBuilder[] requests = { get("/durable/workflows"), get("/durable/workflows/cut-1"),
				get("/durable/workflows/cut-1/history"), get("/durable/workflows/cut-1/queries/notes"),
				json(post("/durable/workflows/cut-1/signals/add"), "\"b\""),
				json(post("/durable/workflows"), "{\"type\":\"note\",\"workflowId\":\"cut-2\",\"input\":\"a\"}"),
				get("/durable/schedules"), get("/durable/queues") };
		for (MockHttpServletRequestBuilder request : requests) {
			MockHttpServletResponse response = within(mvc, request);
			assertThat(databaseUnavailable(response))
				.as("%s answered %s", request,
						(response != null) ? response.getStatus() + " " + response.getContentAsString()
								: "nothing in " + BOUND)
				.isTrue();
		}
		Health health = new WorkflowEngineHealthIndicator(this.engine, new DurableWorkflowProperties.Health()).health();
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(String.valueOf(health.getDetails().get("reason"))).contains("heartbeat");

		// healed: the node serves again, and nothing sent during the partition took
		// effect
		proxy.heal();
		await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
			MockHttpServletResponse response = mvc.perform(get("/durable/workflows/cut-1/queries/notes"))
				.andReturn()
				.getResponse();
			return response.getStatus() == 200 && response.getContentAsString().equals("[\"a\"]");
		});
		assertThat(mvc.perform(get("/durable/workflows/cut-2")).andReturn().getResponse().getStatus()).isEqualTo(404);
		assertThat(new WorkflowEngineHealthIndicator(this.engine, new DurableWorkflowProperties.Health()).health()
			.getStatus()).isNotEqualTo(Status.DOWN);
	}

	/**
	 * Stops the database when the context closes, after the engine: a context stops its
	 * lifecycle beans (the engine, which releases its runs) before it destroys its beans.
	 * Stopped by the test class instead, it would leave the engine to wait for it when
	 * the context closes later.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class DatabaseStopsAfterTheEngine {

		@Bean
		Closeable outageDatabase() {
			return () -> {
				proxy.close();
				postgres.close();
			};
		}

	}

}
