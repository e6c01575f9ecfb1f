package dev.durable.workflow.web;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import dev.durable.workflow.web.outage.OutageWebApplication;

import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * While its PostgreSQL server is stopped, the generated endpoints answer 503
 * {@code DATABASE_UNAVAILABLE} with {@code Retry-After}, not a 500; once it is back they
 * answer as before. The application has a server of its own (port 18150), stopped and
 * started again.
 */
@SpringBootTest(classes = OutageWebApplication.class,
		properties = {
				"spring.datasource.url=jdbc:postgresql://127.0.0.1:" + DatabaseUnavailableRestTest.PORT + "/postgres",
				"spring.datasource.username=postgres", "spring.datasource.hikari.connection-timeout=250",
				"durable.workflow.schema=web_outage", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms", "durable.workflow.web.operations-enabled=true" })
@Import(DatabaseUnavailableRestTest.DatabaseStopsAfterTheEngine.class)
@DirtiesContext
class DatabaseUnavailableRestTest {

	static final int PORT = 18150;

	private static Path data;

	private static EmbeddedPostgres postgres;

	@Autowired
	private WebApplicationContext context;

	@BeforeAll
	static void startPostgres() throws IOException {
		data = Files.createTempDirectory("durable-outage");
		postgres = start();
	}

	private static EmbeddedPostgres start() throws IOException {
		return EmbeddedPostgres.builder()
			.setPort(PORT)
			.setDataDirectory(data)
			.setCleanDataDirectory(false)
			.setRegisterShutdownHook(false)
			.start();
	}

	private static MockHttpServletRequestBuilder json(MockHttpServletRequestBuilder request, String body) {
		return request.contentType(MediaType.APPLICATION_JSON).content(body);
	}

	@Test
	void requestsAnswer503WithRetryAfterWhileTheDatabaseIsDown() throws Exception {
		MockMvc mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
		mvc.perform(json(post("/durable/workflows"), "{\"type\":\"note\",\"workflowId\":\"outage-1\",\"input\":\"a\"}"))
			.andExpect(status().isCreated());
		await().untilAsserted(
				() -> mvc.perform(get("/durable/workflows/outage-1/queries/notes")).andExpect(status().isOk()));

		postgres.close();
		try {
			MockHttpServletRequestBuilder[] requests = { get("/durable/workflows"), get("/durable/workflows/outage-1"),
					get("/durable/workflows/outage-1/history"), get("/durable/workflows/outage-1/result"),
					get("/durable/workflows/outage-1/queries/notes"),
					json(post("/durable/workflows/outage-1/signals/add"), "\"b\""),
					json(post("/durable/workflows"), "{\"type\":\"note\",\"workflowId\":\"outage-2\",\"input\":\"a\"}"),
					json(post("/durable/workflows/outage-1/cancel"), "{\"reason\":\"down\"}"),
					get("/durable/schedules"), get("/durable/queues") };
			for (MockHttpServletRequestBuilder request : requests) {
				mvc.perform(request)
					.andExpect(status().isServiceUnavailable())
					.andExpect(header().string("Content-Type", "application/problem+json"))
					.andExpect(header().string("Retry-After", "5"))
					.andExpect(jsonPath("$.code").value("DATABASE_UNAVAILABLE"));
			}
		}
		finally {
			postgres = start();
		}

		// back: nothing sent during the outage took effect
		await().atMost(Duration.ofSeconds(30))
			.ignoreExceptions()
			.untilAsserted(() -> mvc.perform(get("/durable/workflows/outage-1/queries/notes"))
				.andExpect(status().isOk())
				.andExpect(jsonPath("$").value(org.hamcrest.Matchers.contains("a"))));
		mvc.perform(get("/durable/workflows/outage-1")).andExpect(jsonPath("$.status").value("RUNNING"));
		mvc.perform(get("/durable/workflows/outage-2")).andExpect(status().isNotFound());
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
				postgres.close();
			};
		}

	}

}
