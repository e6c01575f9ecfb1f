package dev.durable.workflow.autoconfigure.openapi;

import java.lang.reflect.Type;
import java.util.List;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.Schema;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.utils.SpringDocAnnotationsUtils;

import dev.durable.workflow.payload.EncodedValue;

/**
 * Schemas of one OpenAPI document: Java types resolved as springdoc resolves a
 * controller's own types (records, enums, lists and maps, referenced types added to the
 * components), and the hand-built schemas of the JSON the endpoints read and write.
 */
final class Schemas {

	private final Components components;

	private final SpecVersion version;

	Schemas(OpenAPI api) {
		if (api.getComponents() == null) {
			api.setComponents(new Components());
		}
		this.components = api.getComponents();
		this.version = (api.getSpecVersion() != null) ? api.getSpecVersion() : SpecVersion.V30;
	}

	/**
	 * The schema of a payload or result type: {@code null} when there is none (no
	 * parameter, or {@code void}); any JSON value for {@code Object} and a dynamic
	 * handler's {@link EncodedValue}.
	 */
	@Nullable Schema<?> of(@Nullable Type type) {
		if (type == null || type == void.class || type == Void.class) {
			return null;
		}
		if (type == Object.class || type == EncodedValue.class) {
			return any("Any JSON value");
		}
		return SpringDocAnnotationsUtils.extractSchema(this.components, type, null, null, this.version);
	}

	/**
	 * A schema of a JSON type ({@code object}, {@code string}...), written for either
	 * OpenAPI version.
	 */
	Schema<?> typed(String type) {
		Schema<?> schema = new Schema<>().specVersion(this.version);
		// OpenAPI 3.0 writes "type", 3.1 writes the JSON Schema "types"; set both so
		// either serializes
		schema.type(type);
		if (this.version == SpecVersion.V31) {
			schema.addType(type);
		}
		return schema;
	}

	Schema<?> object() {
		return typed("object");
	}

	Schema<?> string(String description) {
		return typed("string").description(description);
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	Schema<?> oneOfStrings(List<String> values, String description) {
		Schema schema = string(description);
		schema._enum(values);
		return schema;
	}

	Schema<?> any(String description) {
		return new Schema<>().specVersion(this.version).description(description);
	}

	Schema<?> array(Schema<?> items) {
		return typed("array").items(items);
	}

	/**
	 * Registers a named schema (unless the document has one of that name) and returns its
	 * reference.
	 */
	Schema<?> component(String name, Schema<?> schema) {
		if (this.components.getSchemas() == null || !this.components.getSchemas().containsKey(name)) {
			this.components.addSchemas(name, schema);
		}
		return ref(name);
	}

	/**
	 * A reference to a component schema, such as one springdoc made for a controller's
	 * return type.
	 */
	Schema<?> ref(String name) {
		return new Schema<>().specVersion(this.version).$ref("#/components/schemas/" + name);
	}

	/** The schema itself when it is one, else {@code oneOf} the distinct ones. */
	Schema<?> oneOf(List<Schema<?>> schemas, String description) {
		List<Schema<?>> distinct = schemas.stream().distinct().toList();
		if (distinct.size() == 1) {
			return distinct.get(0);
		}
		Schema<?> schema = new Schema<>().specVersion(this.version).description(description);
		distinct.forEach(schema::addOneOfItem);
		return schema;
	}

}
