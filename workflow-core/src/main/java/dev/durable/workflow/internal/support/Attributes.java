package dev.durable.workflow.internal.support;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Memo and search attributes: key and value checks, the canonical JSON they are stored
 * and recorded as (sorted keys, so a replay produces the same bytes), and reading them
 * back.
 * <p>
 * Search attribute values are kept as typed JSON: strings, whole numbers (as Long),
 * decimals (as Double), booleans, and lists of those. Times become fixed-width UTC
 * strings ({@code 2026-01-01T00:00:00.000000Z}, microseconds), so that comparing the
 * strings compares the times; read back, such strings are Instants again. Memo values are
 * any JSON the engine's mapper can write.
 */
public final class Attributes {

	/** The longest key. */
	public static final int MAX_KEY_LENGTH = 64;

	/** The largest search attributes of one run, as JSON. */
	public static final int MAX_SEARCH_ATTRIBUTES_BYTES = 40 * 1024;

	/** The largest memo of one run, as JSON. */
	public static final int MAX_MEMO_BYTES = 256 * 1024;

	private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_]{1," + MAX_KEY_LENGTH + "}");

	private static final Pattern TIME = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z");

	private static final DateTimeFormatter TIME_FORMAT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
		.withZone(ZoneOffset.UTC);

	private static final Instant MIN_TIME = Instant.parse("0000-01-01T00:00:00Z");

	private static final Instant MAX_TIME = Instant.parse("9999-12-31T23:59:59.999999Z");

	// sorted map keys: the same map gives the same bytes, whatever map implementation the
	// code used
	private static final JsonMapper MAPPER = JsonMapper.builder()
		.enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
		.enable(DeserializationFeature.USE_LONG_FOR_INTS)
		.build();

	private static final TypeReference<TreeMap<String, Object>> MAP = new TypeReference<>() {
	};

	private Attributes() {
	}

	/**
	 * Checks and converts search attributes to their stored form.
	 * @param given the attributes, may be {@code null}
	 * @param patch whether null values are kept (an upsert removes those keys) or dropped
	 * @return a sorted map of stored values (null values only in a patch)
	 * @throws IllegalArgumentException naming the first bad key or value
	 */
	public static Map<String, Object> searchAttributes(Map<String, ?> given, boolean patch) {
		Map<String, Object> normalized = new TreeMap<>();
		if (given == null) {
			return normalized;
		}
		for (Map.Entry<String, ?> entry : given.entrySet()) {
			String key = checkKey(entry.getKey(), "search attribute");
			if (entry.getValue() == null) {
				if (patch) {
					normalized.put(key, null);
				}
				continue;
			}
			normalized.put(key, searchValue(key, entry.getValue(), true));
		}
		return normalized;
	}

	/**
	 * Checks and converts a memo to its stored form (plain JSON values).
	 * @param given the memo, may be {@code null}
	 * @param patch whether null values are kept (an upsert removes those keys) or dropped
	 * @return a sorted map of JSON values (null values only in a patch)
	 */
	public static Map<String, Object> memo(Map<String, ?> given, boolean patch) {
		Map<String, Object> normalized = new TreeMap<>();
		if (given == null) {
			return normalized;
		}
		for (Map.Entry<String, ?> entry : given.entrySet()) {
			String key = checkKey(entry.getKey(), "memo");
			if (entry.getValue() == null) {
				if (patch) {
					normalized.put(key, null);
				}
				continue;
			}
			try {
				// a round trip through JSON: what is stored, and what replay and readers
				// see
				normalized.put(key, MAPPER.readValue(MAPPER.writeValueAsBytes(entry.getValue()), Object.class));
			}
			catch (RuntimeException ex) {
				throw new IllegalArgumentException(
						"Memo value of '" + key + "' cannot be written as JSON: " + ex.getMessage(), ex);
			}
		}
		return normalized;
	}

	/** Checks a memo or search attribute key: 1-64 letters, digits and underscores. */
	public static String checkKey(String key, String what) {
		if (key == null || !KEY.matcher(key).matches()) {
			throw new IllegalArgumentException("Invalid " + what + " key '" + key + "': use 1-" + MAX_KEY_LENGTH
					+ " letters, digits and underscores");
		}
		return key;
	}

	/**
	 * The stored form of one search attribute value (also the form filters compare with).
	 * @param key the key, for the message
	 * @param value a String, Long, Integer, Short, Double, Float, Boolean, Instant,
	 * OffsetDateTime, ZonedDateTime, or (when lists are allowed) a collection of those
	 * @param listAllowed whether a collection is allowed
	 * @return a String, Long, Double, Boolean, or a List of those
	 */
	public static Object searchValue(String key, Object value, boolean listAllowed) {
		if (value instanceof Collection<?> collection && listAllowed) {
			List<Object> list = new ArrayList<>(collection.size());
			for (Object element : collection) {
				if (element == null) {
					throw new IllegalArgumentException("Search attribute '" + key + "' holds a null list element");
				}
				list.add(searchValue(key, element, false));
			}
			return Collections.unmodifiableList(list);
		}
		if (value instanceof String || value instanceof Boolean || value instanceof Long) {
			return value;
		}
		if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
			return ((Number) value).longValue();
		}
		if (value instanceof Double || value instanceof Float) {
			double number = ((Number) value).doubleValue();
			if (Double.isNaN(number) || Double.isInfinite(number)) {
				throw new IllegalArgumentException("Search attribute '" + key + "' must be a finite number: " + value);
			}
			return number;
		}
		Instant time = switch (value) {
			case Instant instant -> instant;
			case OffsetDateTime offset -> offset.toInstant();
			case ZonedDateTime zoned -> zoned.toInstant();
			default -> throw new IllegalArgumentException("Search attribute '" + key + "' has a value of type "
					+ ((value != null) ? value.getClass().getName() : "null") + "; use String, Long, Integer, Double,"
					+ " Boolean, Instant, OffsetDateTime" + (listAllowed ? " or a List of those" : ""));
		};
		if (time.isBefore(MIN_TIME) || time.isAfter(MAX_TIME)) {
			throw new IllegalArgumentException(
					"Search attribute '" + key + "' is a time outside years 0-9999: " + time);
		}
		return TIME_FORMAT.format(time.truncatedTo(ChronoUnit.MICROS));
	}

	/** The JSON type PostgreSQL's {@code jsonb_typeof} gives a stored scalar value. */
	public static String jsonType(Object stored) {
		return switch (stored) {
			case String s -> "string";
			case Boolean b -> "boolean";
			default -> "number";
		};
	}

	/**
	 * Applies a patch: its keys replace the current ones, and its null values remove
	 * keys.
	 */
	public static Map<String, Object> merge(Map<String, Object> current, Map<String, Object> patch) {
		Map<String, Object> merged = new TreeMap<>(current);
		patch.forEach((key, value) -> {
			if (value == null) {
				merged.remove(key);
			}
			else {
				merged.put(key, value);
			}
		});
		return merged;
	}

	/** Checks the size of a run's whole search attributes or memo. */
	public static void checkSize(Map<String, Object> values, boolean memo) {
		int size = json(values).length();
		int limit = memo ? MAX_MEMO_BYTES : MAX_SEARCH_ATTRIBUTES_BYTES;
		if (size > limit) {
			throw new IllegalArgumentException((memo ? "The memo" : "The search attributes") + " would be " + size
					+ " bytes of JSON, over the limit of " + limit);
		}
	}

	/** The canonical JSON of stored values (sorted keys, nulls kept). */
	public static String json(Map<String, Object> values) {
		return MAPPER.writeValueAsString(values);
	}

	/** The JSON of one stored value. */
	public static String valueJson(Object stored) {
		return MAPPER.writeValueAsString(stored);
	}

	/** The canonical JSON of stored values, as bytes. */
	public static byte[] bytes(Map<String, Object> values) {
		return MAPPER.writeValueAsBytes(values);
	}

	/**
	 * Reads canonical JSON (bytes) back into a sorted map; {@code null} gives an empty
	 * map.
	 */
	public static Map<String, Object> read(byte[] json) {
		return (json != null) ? MAPPER.readValue(json, MAP) : new TreeMap<>();
	}

	/**
	 * Reads canonical JSON (text) back into a sorted map; {@code null} gives an empty
	 * map.
	 */
	public static Map<String, Object> read(String json) {
		return (json != null) ? MAPPER.readValue(json, MAP) : new TreeMap<>();
	}

	/** Stored search attributes as callers see them: times as Instants, unmodifiable. */
	public static Map<String, Object> searchView(Map<String, Object> stored) {
		Map<String, Object> view = new TreeMap<>();
		stored.forEach((key, value) -> view.put(key, viewValue(value)));
		return Collections.unmodifiableMap(view);
	}

	private static Object viewValue(Object value) {
		if (value instanceof String text && TIME.matcher(text).matches()) {
			return Instant.parse(text);
		}
		if (value instanceof List<?> list) {
			return list.stream().map(Attributes::viewValue).toList();
		}
		return value;
	}

}
