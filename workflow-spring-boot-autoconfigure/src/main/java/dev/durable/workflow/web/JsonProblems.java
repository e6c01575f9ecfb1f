package dev.durable.workflow.web;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.databind.exc.ValueInstantiationException;

/**
 * Why a JSON body or value does not fit, in words and JSON paths: Jackson's own messages
 * name Java types ({@code java.lang.Integer}, a record's binary name), which a client has
 * no use for and an error body must not show.
 */
final class JsonProblems {

	private JsonProblems() {
	}

	/** The reason, e.g. {@code "'many' is not an integer (at quantity)"}. */
	static String reason(JacksonException ex) {
		if (ex instanceof UnrecognizedPropertyException unknown) {
			// its path ends with the unknown field itself
			String at = at(ex.getPath().subList(0, Math.max(0, ex.getPath().size() - 1)));
			return "unknown field '" + unknown.getPropertyName() + "'" + at + "; the known fields are "
					+ unknown.getKnownPropertyIds();
		}
		String at = at(ex.getPath());
		if (ex instanceof InvalidFormatException format) {
			return "'" + format.getValue() + "' is not " + kind(format.getTargetType()) + at;
		}
		if (ex instanceof ValueInstantiationException instantiation
				&& instantiation.getCause() instanceof IllegalArgumentException invalid
				&& invalid.getMessage() != null) {
			return invalid.getMessage() + at;
		}
		if (ex instanceof MismatchedInputException mismatch) {
			String found = found(mismatch.getCurrentToken());
			return "expected " + kind(mismatch.getTargetType()) + at + ((found != null) ? ", found " + found : "");
		}
		if (ex instanceof StreamReadException read) {
			// without Jackson's "[Source: ...]" location, which describes its input, not
			// the request
			String message = String.valueOf(read.getOriginalMessage())
				.replaceAll("\\s*\\(?(start marker at )?\\[Source:.*$", "");
			TokenStreamLocation location = read.getLocation();
			return (location != null && location.getLineNr() > 0)
					? message + " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")" : message;
		}
		return "a value does not fit" + at;
	}

	/** What a value of the type looks like in JSON or in a request parameter. */
	static String kind(@Nullable Class<?> type) {
		if (type == null) {
			return "a valid value";
		}
		if (CharSequence.class.isAssignableFrom(type) || type == char.class || type == Character.class) {
			return "a string";
		}
		if (type == boolean.class || type == Boolean.class) {
			return "true or false";
		}
		if (type == int.class || type == long.class || type == short.class || type == byte.class
				|| type == Integer.class || type == Long.class || type == Short.class || type == Byte.class
				|| type == BigInteger.class) {
			return "an integer";
		}
		if (type.isPrimitive() || Number.class.isAssignableFrom(type)) {
			return "a number";
		}
		if (type.isEnum()) {
			return "one of " + Arrays.toString(type.getEnumConstants());
		}
		if (type == Duration.class) {
			return "an ISO-8601 duration (e.g. PT30S)";
		}
		if (type == Instant.class || type == OffsetDateTime.class || type == ZonedDateTime.class) {
			return "an ISO-8601 instant (e.g. 2026-01-01T00:00:00Z)";
		}
		if (ZoneId.class.isAssignableFrom(type)) {
			return "a time zone id (e.g. Europe/Berlin)";
		}
		if (type == UUID.class) {
			return "a UUID";
		}
		if (type.isArray() || Collection.class.isAssignableFrom(type)) {
			return "a JSON array";
		}
		if (Map.class.isAssignableFrom(type)) {
			return "a JSON object";
		}
		return "a JSON object";
	}

	private static @Nullable String found(@Nullable JsonToken token) {
		if (token == null) {
			return null;
		}
		return switch (token) {
			case START_OBJECT -> "an object";
			case START_ARRAY -> "an array";
			case VALUE_STRING -> "a string";
			case VALUE_NUMBER_INT -> "an integer";
			case VALUE_NUMBER_FLOAT -> "a decimal number";
			case VALUE_TRUE, VALUE_FALSE -> "a boolean";
			case VALUE_NULL -> "null";
			default -> null;
		};
	}

	/**
	 * Where the value is, e.g. {@code " (at options.retryPolicy.maximumAttempts)"}; empty
	 * at the top.
	 */
	private static String at(java.util.List<JacksonException.Reference> references) {
		StringBuilder path = new StringBuilder();
		for (JacksonException.Reference reference : references) {
			if (reference.getPropertyName() != null) {
				if (!path.isEmpty()) {
					path.append('.');
				}
				path.append(reference.getPropertyName());
			}
			else if (reference.getIndex() >= 0) {
				path.append('[').append(reference.getIndex()).append(']');
			}
		}
		return path.isEmpty() ? "" : " (at " + path + ")";
	}

}
