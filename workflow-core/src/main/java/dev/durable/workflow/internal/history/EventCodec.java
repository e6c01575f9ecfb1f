package dev.durable.workflow.internal.history;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectWriter;

import dev.durable.workflow.internal.support.InternalJson;

/**
 * The stored form of one history row's events: a JSON array of {@link StoredEvent}s
 * written with the engine's own mapper, read back by {@link EventReader}.
 */
public final class EventCodec {

	private static final TypeReference<List<StoredEvent>> EVENTS = new TypeReference<>() {
	};

	// built once: every workflow task writes a history row, and a writer per call showed
	// in profiles
	private static final ObjectWriter WRITER = InternalJson.MAPPER.writerFor(EVENTS);

	private EventCodec() {
	}

	public static byte[] write(List<Event> events) {
		List<StoredEvent> stored = new ArrayList<>(events.size());
		for (Event event : events) {
			stored.add(StoredEvent.of(event));
		}
		return WRITER.writeValueAsBytes(stored);
	}

	public static List<Event> read(byte[] bytes) {
		return EventReader.read(bytes);
	}

}
