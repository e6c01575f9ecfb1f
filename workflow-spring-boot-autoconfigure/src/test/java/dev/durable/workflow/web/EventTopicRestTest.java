package dev.durable.workflow.web;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.web.app.WebTestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.hasItem;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The event-topic endpoints: a publish stores the event once per event id and is
 * dispatched, the topics list its position, and bad input is a problem that stores
 * nothing.
 */
@SpringBootTest(classes = WebTestApplication.class,
		properties = { "durable.workflow.schema=web_topics", "durable.workflow.embedded-postgres.enabled=false",
				"durable.workflow.worker.poll-interval=100ms", "durable.workflow.web.operations-enabled=true" })
class EventTopicRestTest extends RestApiTestSupport {

	@Autowired
	private JdbcTemplate jdbc;

	private int events() {
		return this.jdbc.queryForObject("SELECT count(*) FROM web_topics.topic_event", Integer.class);
	}

	@Test
	void anEventIsPublishedOncePerIdAndDispatched() throws Exception {
		this.mvc
			.perform(json(post("/durable/topics/payments/events").param("eventId", "pay-1"),
					"{\"orderId\":\"o-1\",\"cents\":4200}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.topic").value("payments"))
			.andExpect(jsonPath("$.eventId").value("pay-1"))
			.andExpect(jsonPath("$.stored").value(true));
		this.mvc.perform(json(post("/durable/topics/payments/events").param("eventId", "pay-1"), "{\"other\":1}"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.stored").value(false));
		this.mvc.perform(json(post("/durable/topics/payments/events"), "\"a string payload\""))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$.eventId").isNotEmpty());
		await().untilAsserted(() -> this.mvc.perform(get("/durable/topics"))
			.andExpect(status().isOk())
			.andExpect(jsonPath("$[?(@.topic == 'payments')].lastPosition").value(hasItem(2)))
			.andExpect(jsonPath("$[?(@.topic == 'payments')].undispatchedEvents").value(hasItem(0))));
		assertThat(this.jdbc.queryForObject(
				"SELECT payload->>'orderId' FROM web_topics.topic_event WHERE event_id = 'pay-1'", String.class))
			.isEqualTo("o-1");
	}

	@Test
	void badInputIsAProblemAndStoresNothing() throws Exception {
		int before = events();
		problem(json(post("/durable/topics/ /events"), "{}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/topics/refunds/events").param("eventId", " "), "{}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/topics/refunds/events"), "{\"note\":\"a\\u0000b\"}"), 400, "INVALID_PAYLOAD");
		problem(json(post("/durable/topics/refunds/events"), "{not json"), 400, "INVALID_PAYLOAD");
		problem(post("/durable/topics/refunds/events").contentType(MediaType.TEXT_PLAIN).content("hello"), 415,
				"INVALID_PAYLOAD");
		problem(json(post("/durable/topics/" + "t".repeat(201) + "/events"), "{}"), 400, "INVALID_PAYLOAD");
		assertThat(events()).isEqualTo(before);
	}

}
