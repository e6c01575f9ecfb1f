package dev.durable.workflow.internal.client;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.dao.DataAccessException;

import dev.durable.workflow.client.PublishedEvent;
import dev.durable.workflow.client.TopicStatus;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.internal.support.Errors;
import dev.durable.workflow.internal.support.Payloads;
import dev.durable.workflow.internal.support.TopicNames;
import dev.durable.workflow.internal.topic.TopicPublisher;
import dev.durable.workflow.payload.PayloadConverter;

/**
 * Publishes events for the client. The payload is written as JSON by the payload
 * converter (its unencrypted form: the database matches waits against its fields).
 */
public final class TopicClient {

	/** The longest event id. */
	public static final int MAX_EVENT_ID_LENGTH = 200;

	private final TopicPublisher publisher;

	private final PayloadConverter json;

	public TopicClient(TopicPublisher publisher, PayloadConverter converter) {
		this.publisher = publisher;
		this.json = Payloads.plain(converter);
	}

	/**
	 * @throws IllegalArgumentException for a bad topic or event id, or a payload that is
	 * not JSON
	 */
	public PublishedEvent publish(String topic, Object payload, String eventId) {
		TopicNames.checkTopic(topic);
		if (eventId != null
				&& (eventId.isBlank() || eventId.length() > MAX_EVENT_ID_LENGTH || eventId.indexOf(0) >= 0)) {
			throw new IllegalArgumentException("An event id is 1 to " + MAX_EVENT_ID_LENGTH
					+ " characters, not blank and without NUL, not '" + eventId + "'");
		}
		byte[] bytes;
		try {
			bytes = this.json.toPayload(payload, (payload != null) ? payload.getClass() : Object.class);
		}
		catch (RuntimeException ex) {
			throw new PayloadException(
					"Cannot serialize the payload of an event on topic '" + topic + "': " + ex.getMessage(), false, ex);
		}
		String text = (bytes != null) ? new String(bytes, StandardCharsets.UTF_8) : "null";
		try {
			TopicPublisher.Published published = this.publisher.publish(topic, text, eventId);
			return new PublishedEvent(topic, published.eventId(), published.stored());
		}
		catch (DataAccessException ex) {
			if (Errors.rootMessage(ex).contains("invalid input syntax for type json")) {
				throw new IllegalArgumentException("The payload of an event on topic '" + topic
						+ "' is not JSON: event payloads are matched by the database, so the payload converter"
						+ " must write JSON", ex);
			}
			throw ex;
		}
	}

	public List<TopicStatus> topics() {
		return this.publisher.topics();
	}

}
