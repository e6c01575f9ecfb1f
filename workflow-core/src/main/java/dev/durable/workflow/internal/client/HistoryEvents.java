package dev.durable.workflow.internal.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.history.StoredEvent;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.store.RunRow;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.ReadablePayloads;
import dev.durable.workflow.payload.PayloadConverter;

/**
 * Flattens stored task rows into the public event list, decoding payloads for people (see
 * {@link ReadablePayloads} for their form).
 */
final class HistoryEvents {

	private HistoryEvents() {
	}

	static List<HistoryEvent> of(List<TaskRecord> records, PayloadConverter converter) {
		return of(null, records, converter);
	}

	/**
	 * The events; WORKFLOW_STARTED also names the run ({@code workflowId}, {@code runId},
	 * {@code namespace}, {@code taskQueue}) so that an exported history can be replayed
	 * alone.
	 */
	static List<HistoryEvent> of(RunRow row, List<TaskRecord> records, PayloadConverter converter) {
		List<HistoryEvent> events = new ArrayList<>();
		long id = 1;
		for (TaskRecord record : records) {
			for (Event stored : record.events()) {
				// the public history is the stored form, flat, with payloads decoded
				StoredEvent event = StoredEvent.of(stored);
				Map<String, Object> attributes = attributes(event, converter);
				if (row != null && event.type() == EventType.WORKFLOW_STARTED) {
					attributes.put("workflowId", row.workflowId());
					attributes.put("runId", row.runId().toString());
					attributes.put("namespace", row.namespace());
					attributes.put("taskQueue", row.taskQueue());
					if (event.fireAt() != null) {
						attributes.put("firstWorkflowTaskBackoff",
								java.time.Duration.between(row.createdAt(), event.fireAt()).toString());
					}
				}
				events.add(new HistoryEvent(id++, record.seq(), record.time(), event.type().name(), attributes));
			}
		}
		return events;
	}

	private static Map<String, Object> attributes(StoredEvent event, PayloadConverter converter) {
		Map<String, Object> attributes = new LinkedHashMap<>();
		put(attributes, "seq", event.seq());
		put(attributes, "name", event.name());
		put(attributes, "updateId", event.messageId());
		if (event.payload() != null && event.type() == EventType.ACTIVITY_SCHEDULED) {
			attributes.put("arguments",
					InternalJson.unpack(event.payload())
						.stream()
						.map((p) -> readable(p, converter, event.type()))
						.toList());
		}
		else if (event.payload() != null) {
			attributes.put("payload", readable(event.payload(), converter, event.type()));
		}
		if (event.failure() != null) {
			attributes.put("failure", InternalJson.MAPPER.convertValue(event.failure(), Map.class));
		}
		put(attributes, "fireAt", event.fireAt());
		put(attributes, "version", event.version());
		put(attributes, "reason", event.reason());
		if (event.options() != null) {
			attributes.put("options", InternalJson.MAPPER.convertValue(event.options(), Map.class));
		}
		if (event.child() != null) {
			attributes.put("child", InternalJson.MAPPER.convertValue(event.child(), Map.class));
		}
		return attributes;
	}

	private static void put(Map<String, Object> attributes, String key, Object value) {
		if (value != null) {
			attributes.put(key, value);
		}
	}

	private static Object readable(byte[] payload, PayloadConverter converter, EventType type) {
		if (payload != null && type.payloadIsEngineJson()) {
			// memo and search attributes: the engine's own JSON, never the converter's
			return InternalJson.MAPPER.readValue(payload, Object.class);
		}
		return ReadablePayloads.toReadable(payload, converter);
	}

}
