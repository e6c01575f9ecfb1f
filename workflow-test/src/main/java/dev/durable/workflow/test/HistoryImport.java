package dev.durable.workflow.test;

import dev.durable.workflow.ActivityOptions;
import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.internal.history.Event;
import dev.durable.workflow.internal.history.EventType;
import dev.durable.workflow.internal.history.FailureInfo;
import dev.durable.workflow.internal.history.TaskRecord;
import dev.durable.workflow.internal.runtime.RunIdentity;
import dev.durable.workflow.internal.support.InternalJson;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;

/**
 * Rebuilds the stored form of a history (task rows of events) from its public, flattened view
 * ({@link HistoryEvent}s, as {@code handle.history()} returns them or as JSON): the inverse of the
 * engine's export. Payloads come back as the JSON the default payload converter writes.
 */
final class HistoryImport {

  private static final TypeReference<List<HistoryEvent>> EVENTS = new TypeReference<>() {};

  private HistoryImport() {}

  static List<HistoryEvent> parse(String json) {
    return InternalJson.MAPPER.readValue(json, EVENTS);
  }

  /** The events grouped by workflow task, in order. */
  static List<TaskRecord> records(List<HistoryEvent> history) {
    Map<Integer, List<Event>> byTask = new LinkedHashMap<>();
    Map<Integer, Instant> times = new LinkedHashMap<>();
    for (HistoryEvent event : history) {
      byTask.computeIfAbsent(event.workflowTask(), (k) -> new ArrayList<>()).add(event(event));
      times.putIfAbsent(event.workflowTask(), event.time());
    }
    List<TaskRecord> records = new ArrayList<>();
    byTask.forEach(
        (seq, events) ->
            records.add(
                new TaskRecord(seq, times.get(seq), events, InternalJson.writeEvents(events).length)));
    return records;
  }

  /** Who the run was, from its WORKFLOW_STARTED event (a random run id when not exported). */
  static RunIdentity identity(List<HistoryEvent> history, String defaultType) {
    for (HistoryEvent event : history) {
      if (EventType.WORKFLOW_STARTED.name().equals(event.type())) {
        Map<String, Object> a = event.attributes();
        Object runId = a.get("runId");
        return new RunIdentity(
            string(a.getOrDefault("namespace", "default")),
            string(a.getOrDefault("workflowId", "replay")),
            (runId != null) ? UUID.fromString(runId.toString()) : UUID.randomUUID(),
            string(a.getOrDefault("name", defaultType)),
            string(a.getOrDefault("taskQueue", "default")));
      }
    }
    throw new IllegalArgumentException("The history has no WORKFLOW_STARTED event");
  }

  static Event event(HistoryEvent source) {
    EventType type = EventType.valueOf(source.type());
    Map<String, Object> a = source.attributes();
    byte[] payload;
    if (a.containsKey("arguments")) {
      List<byte[]> parts = new ArrayList<>();
      for (Object argument : (List<?>) a.get("arguments")) {
        parts.add(encode(argument));
      }
      payload = InternalJson.pack(parts);
    } else {
      payload = a.containsKey("payload") ? encode(a.get("payload")) : null;
    }
    Object seq = a.get("seq");
    Object version = a.get("version");
    return new Event(
        type,
        (seq != null) ? ((Number) number(seq)).longValue() : null,
        string(a.get("name")),
        payload,
        convert(a.get("failure"), FailureInfo.class),
        instant(a.get("fireAt")),
        (version != null) ? ((Number) number(version)).intValue() : null,
        convert(a.get("options"), ActivityOptions.class),
        string(a.get("reason")),
        string(a.get("updateId")),
        convert(a.get("child"), ChildOptions.class));
  }

  private static byte[] encode(Object value) {
    return InternalJson.MAPPER.writeValueAsBytes(value);
  }

  private static <T> @Nullable T convert(@Nullable Object value, Class<T> type) {
    return (value != null) ? InternalJson.MAPPER.convertValue(value, type) : null;
  }

  private static @Nullable String string(@Nullable Object value) {
    return (value != null) ? value.toString() : null;
  }

  private static Object number(Object value) {
    return (value instanceof Number) ? value : new BigDecimal(value.toString());
  }

  private static @Nullable Instant instant(@Nullable Object value) {
    if (value == null || value instanceof Instant) {
      return (Instant) value;
    }
    if (value instanceof Number number) {
      // epoch seconds with a fraction, as Jackson writes an Instant as a timestamp
      BigDecimal seconds = new BigDecimal(number.toString());
      return Instant.ofEpochSecond(
          seconds.longValue(),
          seconds.subtract(new BigDecimal(seconds.longValue())).movePointRight(9).longValue());
    }
    return Instant.parse(value.toString());
  }
}
