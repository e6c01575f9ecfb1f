package dev.durable.workflow.web;

import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.context.WebApplicationContext;

import dev.durable.workflow.web.app.WebTestApplication;

import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The application of the REST API tests (one context, shared by every subclass) and their
 * helpers: JSON requests and problem-detail expectations.
 */
@SpringBootTest(classes = WebTestApplication.class,
		properties = { "durable.workflow.schema=web_api", "durable.workflow.max-payload-size=2KB",
				"durable.workflow.embedded-postgres.enabled=false", "durable.workflow.worker.poll-interval=100ms",
				"durable.workflow.queues.reports.concurrency=1", "durable.workflow.queues.reports.rate-limit=100",
				"durable.workflow.queues.reports.rate-period=1m",
				// the tests call every endpoint: signals, updates, cancel, schedule
				// changes, completion
				"durable.workflow.web.operations-enabled=true" })
abstract class RestApiTestSupport {

	@Autowired
	private WebApplicationContext context;

	protected MockMvc mvc;

	@BeforeEach
	void mvc() {
		this.mvc = MockMvcBuilders.webAppContextSetup(this.context).build();
	}

	protected static MockHttpServletRequestBuilder json(MockHttpServletRequestBuilder request, String body) {
		return request.contentType(MediaType.APPLICATION_JSON).content(body);
	}

	/** Expects a problem detail with the status and stable code, and a message. */
	protected void problem(MockHttpServletRequestBuilder request, int status, String code) throws Exception {
		problem(this.mvc, request, status, code);
	}

	/**
	 * {@link #problem(MockHttpServletRequestBuilder, int, String)} of another
	 * {@link MockMvc}.
	 */
	static void problem(MockMvc mvc, MockHttpServletRequestBuilder request, int status, String code) throws Exception {
		mvc.perform(request)
			.andExpect(status().is(status))
			.andExpect(header().string("Content-Type", "application/problem+json"))
			.andExpect(jsonPath("$.code").value(code))
			.andExpect(jsonPath("$.detail").isNotEmpty());
	}

}
