package dev.durable.workflow.internal.history;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectReader;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.internal.support.InternalJson;

/**
 * Reads a history row's events token by token. Profiles of a replay put three quarters of
 * its time in the generic record binding of these rows (a creator call with eleven
 * buffered properties per event, and the activity options bound again for every scheduled
 * activity), so the flat fields are read straight off the parser and the options, which
 * repeat per call site, are bound once per distinct JSON and shared (they are immutable
 * records). Each object becomes its {@link StoredEvent} and then the {@link Event} of its
 * type. Nested values that are rare (failures, child options) and any shape this reader
 * does not expect go to the mapper, so it reads whatever {@link EventCodec#write} wrote.
 */
final class EventReader {

	private static final int MAX_CACHED_OPTIONS = 256;

	private static final ObjectReader FAILURE = nested(FailureInfo.class);

	private static final ObjectReader CHILD = nested(ChildOptions.class);

	private static final ObjectReader OPTIONS_READER = nested(ActivityOptions.class);

	private static final ObjectReader INSTANT = nested(Instant.class);

	private static final Map<ByteBuffer, ActivityOptions> OPTIONS = new ConcurrentHashMap<>();

	private EventReader() {
	}

	/** A reader of a value inside the row: the row's parser goes on after it. */
	private static ObjectReader nested(Class<?> type) {
		return InternalJson.MAPPER.readerFor(type).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
	}

	static List<Event> read(byte[] bytes) {
		try (JsonParser parser = InternalJson.MAPPER.createParser(bytes)) {
			expect(parser.nextToken(), JsonToken.START_ARRAY);
			List<Event> events = new ArrayList<>();
			JsonToken token;
			while ((token = parser.nextToken()) == JsonToken.START_OBJECT) {
				events.add(event(parser, bytes));
			}
			expect(token, JsonToken.END_ARRAY);
			return events;
		}
	}

	private static Event event(JsonParser parser, byte[] bytes) {
		EventType type = null;
		Long seq = null;
		String name = null;
		byte[] payload = null;
		FailureInfo failure = null;
		Instant fireAt = null;
		Integer version = null;
		ActivityOptions options = null;
		String reason = null;
		String messageId = null;
		ChildOptions child = null;
		while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
			String field = parser.currentName();
			if (parser.nextToken() == JsonToken.VALUE_NULL) {
				continue;
			}
			switch (field) {
				case "type" -> type = EventType.valueOf(parser.getString());
				case "seq" -> seq = parser.getLongValue();
				case "name" -> name = parser.getString();
				case "payload" -> payload = parser.getBinaryValue();
				case "failure" -> failure = FAILURE.readValue(parser);
				case "fireAt" -> fireAt = (parser.currentToken() == JsonToken.VALUE_STRING)
						? Instant.parse(parser.getString()) : INSTANT.readValue(parser);
				case "version" -> version = parser.getIntValue();
				case "options" -> options = options(parser, bytes);
				case "reason" -> reason = parser.getString();
				case "messageId" -> messageId = parser.getString();
				case "child" -> child = CHILD.readValue(parser);
				default -> parser.skipChildren(); // written by a later version: ignored,
													// as the mapper does
			}
		}
		expect(parser.currentToken(), JsonToken.END_OBJECT);
		return new StoredEvent(type, seq, name, payload, failure, fireAt, version, options, reason, messageId, child)
			.toEvent();
	}

	/** The options object at the parser, bound once per distinct JSON text. */
	private static ActivityOptions options(JsonParser parser, byte[] bytes) {
		long offset = parser.currentTokenLocation().getByteOffset();
		if (parser.currentToken() != JsonToken.START_OBJECT || offset < 0) {
			return OPTIONS_READER.readValue(parser);
		}
		int start = (int) offset;
		parser.skipChildren();
		int end = (int) parser.currentTokenLocation().getByteOffset() + 1;
		ByteBuffer json = ByteBuffer.wrap(bytes, start, end - start).slice();
		ActivityOptions cached = OPTIONS.get(json);
		if (cached != null) {
			return cached;
		}
		byte[] copy = new byte[end - start];
		System.arraycopy(bytes, start, copy, 0, copy.length);
		ActivityOptions options = OPTIONS_READER.readValue(copy);
		if (OPTIONS.size() >= MAX_CACHED_OPTIONS) {
			OPTIONS.clear(); // options computed per call: stop caching rather than grow
		}
		OPTIONS.put(ByteBuffer.wrap(copy), options);
		return options;
	}

	private static void expect(JsonToken actual, JsonToken expected) {
		if (actual != expected) {
			throw new IllegalStateException("A history row is not a JSON array of event objects: found " + actual
					+ " where " + expected + " belongs");
		}
	}

}
