package dev.durable.workflow.web;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import dev.durable.workflow.client.PublishedEvent;
import dev.durable.workflow.client.TopicStatus;
import dev.durable.workflow.client.WorkflowClient;

/**
 * The generated REST endpoints of event topics: {@code POST
 * /durable/topics/{topic}/events?eventId=} publishes the JSON body as an event (an
 * operation, like a signal; a repeated event id answers {@code "stored": false} and
 * changes nothing), {@code GET /durable/topics} lists the topics with their waiting runs.
 */
@RestController
@RequestMapping("${durable.workflow.web.base-path:/durable}/topics")
public class TopicRestController {

	private final WorkflowClient client;

	private final WebPayloads payloads;

	public TopicRestController(WorkflowClient client, WebPayloads payloads) {
		this.client = client;
		this.payloads = payloads;
	}

	@GetMapping
	List<TopicStatus> topics() {
		return this.client.topics();
	}

	@PostMapping("/{topic}/events")
	PublishedEvent publish(@PathVariable String topic, HttpEntity<byte @Nullable []> body,
			@RequestParam(required = false) @Nullable String eventId) {
		JsonNode payload = this.payloads.parse(body);
		WebPayloads.refuseNul(payload, "the event");
		return this.client.publish(topic, payload, eventId);
	}

}
