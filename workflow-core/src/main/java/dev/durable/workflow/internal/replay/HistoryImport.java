package dev.durable.workflow.internal.replay;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import tools.jackson.core.type.TypeReference;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventCodec;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.StoredEvent;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.runtime.RunIdentity;
import dev.durable.workflow.internal.support.InternalJson;
import dev.durable.workflow.internal.support.ReadablePayloads;
import dev.durable.workflow.payload.PayloadConverter;

/**
 * Rebuilds the stored form of a history (task rows of events) from its public, flattened
 * view ({@link HistoryEvent}s, as {@code handle.history()} returns them or as JSON): the
 * inverse of the engine's export. Payloads come back encoded with the converter the
 * history is replayed with, the JSON converter by default.
 */
public final class HistoryImport {

	private static final TypeReference<List<HistoryEvent>> EVENTS = new TypeReference<>() {
	};

	private HistoryImport() {
	}

	public static List<HistoryEvent> parse(String json) {
		return InternalJson.MAPPER.readValue(json, EVENTS);
	}

	/** The events grouped by workflow task, in order. */
	public static List<TaskRecord> records(List<HistoryEvent> history) {
		return records(history, PayloadConverter.json());
	}

	/**
	 * The events grouped by workflow task, in order, payloads encoded again with the
	 * converter the history is replayed with (see {@link ReadablePayloads}).
	 */
	public static List<TaskRecord> records(List<HistoryEvent> history, PayloadConverter converter) {
		Map<Integer, List<Event>> byTask = new LinkedHashMap<>();
		Map<Integer, Instant> times = new LinkedHashMap<>();
		for (HistoryEvent event : history) {
			byTask.computeIfAbsent(event.workflowTask(), (k) -> new ArrayList<>()).add(event(event, converter));
			times.putIfAbsent(event.workflowTask(), event.time());
		}
		List<TaskRecord> records = new ArrayList<>();
		byTask.forEach((seq, events) -> records
			.add(new TaskRecord(seq, times.get(seq), events, EventCodec.write(events).length)));
		return records;
	}

	/**
	 * Who the run was, from its WORKFLOW_STARTED event (a random run id when not
	 * exported).
	 */
	public static RunIdentity identity(List<HistoryEvent> history, String defaultType) {
		for (HistoryEvent event : history) {
			if (EventType.WORKFLOW_STARTED.name().equals(event.type())) {
				Map<String, Object> a = event.attributes();
				Object runId = a.get("runId");
				return new RunIdentity(string(a.getOrDefault("namespace", "default")),
						string(a.getOrDefault("workflowId", "replay")),
						(runId != null) ? UUID.fromString(runId.toString()) : UUID.randomUUID(),
						string(a.getOrDefault("name", defaultType)), string(a.getOrDefault("taskQueue", "default")));
			}
		}
		throw new IllegalArgumentException("The history has no WORKFLOW_STARTED event");
	}

	public static Event event(HistoryEvent source) {
		return event(source, PayloadConverter.json());
	}

	public static Event event(HistoryEvent source, PayloadConverter converter) {
		EventType type = EventType.valueOf(source.type());
		Map<String, Object> a = source.attributes();
		byte[] payload;
		if (a.containsKey("arguments")) {
			List<byte[]> parts = new ArrayList<>();
			for (Object argument : (List<?>) a.get("arguments")) {
				parts.add(encode(argument, type, converter));
			}
			payload = InternalJson.pack(parts);
		}
		else {
			payload = a.containsKey("payload") ? encode(a.get("payload"), type, converter) : null;
		}
		Object seq = a.get("seq");
		Object version = a.get("version");
		return new StoredEvent(type, (seq != null) ? ((Number) number(seq)).longValue() : null, string(a.get("name")),
				payload, convert(a.get("failure"), FailureInfo.class), instant(a.get("fireAt")),
				(version != null) ? ((Number) number(version)).intValue() : null,
				convert(a.get("options"), ActivityOptions.class), string(a.get("reason")), string(a.get("updateId")),
				convert(a.get("child"), ChildOptions.class))
			.toEvent();
	}

	private static byte[] encode(Object value, EventType type, PayloadConverter converter) {
		if (type.payloadIsEngineJson()) {
			return InternalJson.MAPPER.writeValueAsBytes(value);
		}
		return ReadablePayloads.fromReadable(value, converter);
	}

	private static <T> T convert(Object value, Class<T> type) {
		return (value != null) ? InternalJson.MAPPER.convertValue(value, type) : null;
	}

	private static String string(Object value) {
		return (value != null) ? value.toString() : null;
	}

	private static Object number(Object value) {
		return (value instanceof Number) ? value : new BigDecimal(value.toString());
	}

	private static Instant instant(Object value) {
		if (value == null || value instanceof Instant) {
			return (Instant) value;
		}
		if (value instanceof Number number) {
			// epoch seconds with a fraction, as Jackson writes an Instant as a timestamp
			BigDecimal seconds = new BigDecimal(number.toString());
			return Instant.ofEpochSecond(seconds.longValue(),
					seconds.subtract(new BigDecimal(seconds.longValue())).movePointRight(9).longValue());
		}
		return Instant.parse(value.toString());
	}

}
