package dev.durable.workflow;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Which events on a topic a run waits for with {@link Workflows#awaitEvent}: the fields
 * the event's JSON payload must have, each with the value it must equal. The database
 * finds the waiting runs an event matches by an index on these values, so a publish costs
 * the same whether ten or a million runs wait on the topic.
 *
 * <pre>{@code
 * TopicEvent<Payment> paid = Workflows.awaitEvent("payments",
 *         EventMatch.field("orderId", order.id()).and("currency", "EUR"), Payment.class);
 * }</pre>
 *
 * A field is a property name of the payload, or a dotted path into nested objects
 * ({@code "customer.id"}); a value is a string, a number or a boolean (compared as JSON:
 * {@code 7} does not match {@code "7"}). {@link #any()} matches every event of the topic.
 * <p>
 * A wait sees the events dispatched after it began. {@link #after(long)} makes it see the
 * events after a position instead (a {@link TopicEvent#position()} it received earlier),
 * so a run that handles the events of a topic one after another misses none published
 * while it was busy. Immutable.
 */
public final class EventMatch {

	private static final Pattern FIELD = Pattern.compile("[A-Za-z0-9_$@-]+(\\.[A-Za-z0-9_$@-]+)*");

	private static final EventMatch ANY = new EventMatch(Map.of(), null);

	private final Map<String, Object> fields;

	private final @Nullable Long after;

	private EventMatch(Map<String, Object> fields, @Nullable Long after) {
		this.fields = fields;
		this.after = after;
	}

	/** Every event of the topic. */
	public static EventMatch any() {
		return ANY;
	}

	/**
	 * The events whose payload has this field with this value.
	 * @param field a property name, or a dotted path ({@code customer.id})
	 * @param value a string, a number or a boolean
	 * @throws IllegalArgumentException for a bad field or value
	 */
	public static EventMatch field(String field, Object value) {
		return ANY.and(field, value);
	}

	/**
	 * This match, and the payload also has this field with this value.
	 * @throws IllegalArgumentException for a bad field, a value that is not a string, a
	 * number or a boolean, or a field already named
	 */
	public EventMatch and(String field, Object value) {
		if (field == null || !FIELD.matcher(field).matches() || field.length() > 200) {
			throw new IllegalArgumentException("An event match field is a property name or a dotted path of them"
					+ " (letters, digits and _$@-), not '" + field + "'");
		}
		if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
			throw new IllegalArgumentException(
					"The value of event match field '" + field + "' must be a string, a number or a boolean, not "
							+ ((value == null) ? "null" : value.getClass().getSimpleName()));
		}
		if (this.fields.containsKey(field)) {
			throw new IllegalArgumentException("Event match field '" + field + "' is named twice");
		}
		Map<String, Object> next = new TreeMap<>(this.fields);
		next.put(field, value);
		return new EventMatch(Collections.unmodifiableMap(next), this.after);
	}

	/**
	 * This match, counting the events after this position of the topic (including those
	 * dispatched before the wait began).
	 * @param position a {@link TopicEvent#position()}, or 0 for every event the topic
	 * still holds
	 * @throws IllegalArgumentException when negative
	 */
	public EventMatch after(long position) {
		if (position < 0) {
			throw new IllegalArgumentException("An event position is not negative: " + position);
		}
		return new EventMatch(this.fields, position);
	}

	/** The fields and the values they must have, sorted by field. */
	public Map<String, Object> fields() {
		return this.fields;
	}

	/** The position after which events count, or {@code null}: after the wait began. */
	public @Nullable Long afterPosition() {
		return this.after;
	}

	@Override
	public boolean equals(Object o) {
		return o instanceof EventMatch m && this.fields.equals(m.fields) && Objects.equals(this.after, m.after);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.fields, this.after);
	}

	@Override
	public String toString() {
		return "EventMatch" + this.fields + ((this.after != null) ? " after " + this.after : "");
	}

}
