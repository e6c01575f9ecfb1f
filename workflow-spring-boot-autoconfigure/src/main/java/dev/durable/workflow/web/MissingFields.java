package dev.durable.workflow.web;

import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.durable.workflow.failure.MissingInputException;

/**
 * Finds a primitive field a JSON payload leaves out of a record (or of a record inside
 * it): converted, it would take a default ({@code 0}, {@code false}) the sender never
 * meant, and a run started with it could only do the wrong thing. Reference fields may be
 * absent (they are {@code null}); so may a whole payload the handler's parameter allows.
 */
final class MissingFields {

	private MissingFields() {
	}

	/**
	 * Refuses the value when a primitive field of a record in it is absent or
	 * {@code null}.
	 * @param node the JSON value
	 * @param type the type it is converted to
	 * @param what what the value is, for the message
	 * @param root the value's name in the request, the start of the field's path
	 */
	static void check(@Nullable JsonNode node, @Nullable Type type, String what, String root) {
		if (node != null && node.isObject() && type instanceof Class<?> record && record.isRecord()) {
			check(node, record, what, root);
		}
	}

	private static void check(JsonNode object, Class<?> record, String what, String path) {
		for (RecordComponent component : record.getRecordComponents()) {
			String name = name(component);
			JsonNode value = object.get(name);
			String field = path + "." + name;
			if (component.getType().isPrimitive() && (value == null || value.isNull())) {
				throw new MissingInputException(
						"Invalid " + what + ": the field \"" + field + "\" (" + component.getType().getName()
								+ ") is missing, and a " + component.getType().getName() + " has no absent value",
						field);
			}
			if (value != null && value.isObject() && component.getType().isRecord()) {
				check(value, component.getType(), what, field);
			}
		}
	}

	private static String name(RecordComponent component) {
		JsonProperty property = component.getAnnotation(JsonProperty.class);
		if (property == null && component.getAccessor() != null) {
			property = component.getAccessor().getAnnotation(JsonProperty.class);
		}
		return (property != null && !property.value().isEmpty()) ? property.value() : component.getName();
	}

}
