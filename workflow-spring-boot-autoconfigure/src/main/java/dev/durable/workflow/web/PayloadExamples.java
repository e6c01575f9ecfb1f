package dev.durable.workflow.web;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * A JSON skeleton of a handler's payload type, for people who type a payload into the
 * dashboard: records become objects of their components, collections arrays of one
 * element, numbers 0, strings "", enums their first constant; what cannot be told (an
 * interface, {@code Object}) is {@code null}. Never a schema the server checks: the
 * payload converter decides what it accepts.
 */
final class PayloadExamples {

	private static final int MAX_DEPTH = 4;

	private PayloadExamples() {
	}

	/**
	 * The short name of a type for a hint ({@code List<Shipment>} rather than package
	 * names).
	 */
	static String name(@Nullable Type type) {
		if (type == null) {
			return "none";
		}
		return type.getTypeName().replaceAll("\\b[a-z][a-z0-9_]*\\.", "").replace('$', '.');
	}

	static @Nullable Object example(@Nullable Type type) {
		return example(type, 0);
	}

	private static @Nullable Object example(@Nullable Type type, int depth) {
		if (type == null || depth > MAX_DEPTH) {
			return null;
		}
		if (type instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
			Type[] arguments = parameterized.getActualTypeArguments();
			if (Collection.class.isAssignableFrom(raw) && arguments.length == 1) {
				return listOf(example(arguments[0], depth + 1));
			}
			if (Map.class.isAssignableFrom(raw)) {
				return Map.of();
			}
			return example(raw, depth);
		}
		if (type instanceof GenericArrayType array) {
			return listOf(example(array.getGenericComponentType(), depth + 1));
		}
		if (type instanceof WildcardType wildcard) {
			return example(wildcard.getUpperBounds()[0], depth);
		}
		if (!(type instanceof Class<?> c)) {
			return null;
		}
		return classExample(c, depth);
	}

	private static @Nullable Object classExample(Class<?> c, int depth) {
		if (c == String.class || c == char.class || c == Character.class) {
			return "";
		}
		if (c == boolean.class || c == Boolean.class) {
			return false;
		}
		if (c == double.class || c == float.class || c == Double.class || c == Float.class) {
			return 0.0;
		}
		if (c.isPrimitive() || Number.class.isAssignableFrom(c)) {
			return 0;
		}
		if (c.isEnum()) {
			Object[] constants = c.getEnumConstants();
			return (constants.length > 0) ? ((Enum<?>) constants[0]).name() : null;
		}
		if (c == Instant.class || c == OffsetDateTime.class || c == ZonedDateTime.class) {
			return "2030-01-01T00:00:00Z";
		}
		if (c == LocalDate.class) {
			return "2030-01-01";
		}
		if (c == LocalDateTime.class) {
			return "2030-01-01T00:00:00";
		}
		if (c == Duration.class) {
			return "PT1M";
		}
		if (c == UUID.class) {
			return "00000000-0000-0000-0000-000000000000";
		}
		if (c.isArray()) {
			return listOf(example(c.getComponentType(), depth + 1));
		}
		if (Collection.class.isAssignableFrom(c)) {
			return List.of();
		}
		if (Map.class.isAssignableFrom(c)) {
			return Map.of();
		}
		if (c.isRecord()) {
			Map<String, @Nullable Object> fields = new LinkedHashMap<>();
			for (RecordComponent component : c.getRecordComponents()) {
				fields.put(component.getName(), example(component.getGenericType(), depth + 1));
			}
			return fields;
		}
		return null;
	}

	private static List<@Nullable Object> listOf(@Nullable Object element) {
		List<@Nullable Object> list = new ArrayList<>();
		list.add(element);
		return list;
	}

}
