package dev.durable.workflow.internal.history;

import java.util.List;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;

import dev.durable.workflow.internal.support.InternalJson;

/**
 * The stored form of one history row's events: JSON written with the engine's own mapper.
 */
public final class EventCodec {

	private static final TypeReference<List<Event>> EVENTS = new TypeReference<>() {
	};

	// built once: every workflow task writes a history row, and a writer per call showed
	// in profiles
	private static final ObjectWriter WRITER = InternalJson.MAPPER.writerFor(EVENTS);

	private static final ObjectReader READER = InternalJson.MAPPER.readerFor(EVENTS);

	private EventCodec() {
	}

	public static byte[] write(List<Event> events) {
		return WRITER.writeValueAsBytes(events);
	}

	public static List<Event> read(byte[] bytes) {
		return EventReader.read(bytes);
	}

	/**
	 * The generic binding {@link #read} replaces, kept to check that both read the same.
	 */
	static List<Event> readBound(byte[] bytes) {
		return READER.readValue(bytes);
	}

}
