package dev.durable.workflow.web;

import java.lang.reflect.Type;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpEntity;
import org.springframework.http.MediaType;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.EnumFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.type.LogicalType;

import dev.durable.workflow.failure.PayloadException;

/**
 * Request bodies of the generated endpoints: JSON only (415 for another Content-Type),
 * size-checked, parsed and converted to the parameter type of the workflow or handler
 * they are for, so a wrong payload is refused with a clear message before anything is
 * written.
 */
public final class WebPayloads {

	private final JsonMapper mapper;

	private final int maxBytes;

	public WebPayloads(JsonMapper mapper, int maxBytes) {
		// absent booleans and numbers take their defaults; a misspelt option is an error,
		// not ignored;
		// a value of the wrong JSON type is an error, not coerced (12345 is no string id,
		// 1.5 no event
		// id, 0 no enum constant)
		this.mapper = mapper.rebuild()
			.disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
			.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
			.enable(EnumFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
			.withCoercionConfig(LogicalType.Textual,
					(config) -> config.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
						.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
						.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
			.withCoercionConfig(LogicalType.Integer,
					(config) -> config.setCoercion(CoercionInputShape.Float, CoercionAction.Fail))
			.build();
		this.maxBytes = maxBytes;
	}

	/**
	 * Parses the body of a request: an empty body is JSON {@code null} whatever its
	 * Content-Type; a body that is not empty must be declared JSON
	 * ({@code application/json} or {@code application/*+json}), else it is refused (415)
	 * rather than guessed at.
	 */
	JsonNode parse(HttpEntity<byte @Nullable []> request) {
		return parse(request, this.maxBytes, "durable.workflow.max-payload-size");
	}

	/**
	 * {@link #parse(HttpEntity)} with a limit of its own: a body that carries many
	 * payloads (exported histories).
	 * @param limitName what sets the limit, for the refusal's message
	 */
	JsonNode parse(HttpEntity<byte @Nullable []> request, long maxBytes, String limitName) {
		byte[] body = request.getBody();
		if (body == null || body.length == 0) {
			return NullNode.getInstance();
		}
		MediaType contentType = request.getHeaders().getContentType();
		if (contentType == null || !isJson(contentType)) {
			throw new NotJsonException(contentType);
		}
		checkSize(body, maxBytes, limitName);
		try {
			return this.mapper.readTree(body);
		}
		catch (JacksonException ex) {
			throw new PayloadException("The request body is not valid JSON: " + JsonProblems.reason(ex), false, ex);
		}
	}

	/**
	 * A handler's payload, converted to its parameter type as {@link #payload} does. A
	 * handler that takes a {@code String} also takes the text itself, sent as
	 * {@code text/plain}: what a client generated from the OpenAPI document sends for a
	 * string, and what the document lists first for one.
	 */
	@Nullable Object handlerPayload(HttpEntity<byte @Nullable []> request, @Nullable Type type, String what) {
		byte[] body = request.getBody();
		MediaType contentType = request.getHeaders().getContentType();
		if (type == String.class && body != null && body.length > 0 && contentType != null
				&& contentType.isCompatibleWith(MediaType.TEXT_PLAIN)) {
			checkSize(body);
			Charset charset = (contentType.getCharset() != null) ? contentType.getCharset() : StandardCharsets.UTF_8;
			return new String(body, charset);
		}
		return payload(parse(request), type, what, "payload");
	}

	private void checkSize(byte[] body) {
		checkSize(body, this.maxBytes, "durable.workflow.max-payload-size");
	}

	private static void checkSize(byte[] body, long maxBytes, String limitName) {
		if (body.length > maxBytes) {
			throw new PayloadException(
					"The request body has " + body.length + " bytes; the limit is " + maxBytes + " (" + limitName + ")",
					true, null);
		}
	}

	private static boolean isJson(MediaType type) {
		return type.isCompatibleWith(MediaType.APPLICATION_JSON) || "json".equals(type.getSubtypeSuffix());
	}

	/** A value as a JSON tree, as this mapper writes it. */
	JsonNode tree(Object value) {
		return this.mapper.valueToTree(value);
	}

	/**
	 * Converts a JSON value to the type a workflow or handler takes.
	 * @param node the value
	 * @param type the parameter type, or {@code null} when it takes none
	 * @param what what the value is, for the error message
	 */
	@Nullable Object convert(@Nullable JsonNode node, @Nullable Type type, String what) {
		if (type == null) {
			if (node != null && !node.isNull() && !node.isMissingNode()) {
				throw new PayloadException(what + " takes no payload, but the request has one", false, null);
			}
			return null;
		}
		if (node == null || node.isMissingNode()) {
			return null;
		}
		try {
			JavaType javaType = this.mapper.getTypeFactory().constructType(type);
			return this.mapper.treeToValue(node, javaType);
		}
		catch (JacksonException ex) {
			throw new PayloadException("Invalid " + what + ": " + JsonProblems.reason(ex), false, ex);
		}
		catch (IllegalArgumentException ex) {
			throw new PayloadException("Invalid " + what + ": " + ex.getMessage(), false, ex);
		}
	}

	/**
	 * Converts a payload for a workflow or handler: as {@link #convert}, and a primitive
	 * field of a record that the JSON leaves out is refused, not defaulted.
	 * @param root the payload's name in the request ({@code input}, {@code payload}), the
	 * start of a missing field's path
	 */
	@Nullable Object payload(@Nullable JsonNode node, @Nullable Type type, String what, String root) {
		MissingFields.check(node, type, what, root);
		return convert(node, type, what);
	}

	/**
	 * Refuses a NUL character in any name or string of the value (those reach text and
	 * {@code jsonb} columns), but under the skipped fields (payloads, stored as bytes).
	 * @param node the value
	 * @param what what the value is, for the error message
	 * @param skipped dotted paths of fields not checked, e.g. {@code "action.input"}
	 */
	static void refuseNul(@Nullable JsonNode node, String what, String... skipped) {
		refuseNul(node, what, "", Set.of(skipped));
	}

	private static void refuseNul(@Nullable JsonNode node, String what, String path, Set<String> skipped) {
		if (node == null || skipped.contains(path)) {
			return;
		}
		if (node.isString() && NulCharacterException.contains(node.asString())) {
			throw new NulCharacterException("The " + what + (path.isEmpty() ? "" : " at " + path));
		}
		if (node.isObject()) {
			for (Map.Entry<String, JsonNode> field : node.properties()) {
				String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
				if (NulCharacterException.contains(field.getKey())) {
					throw new NulCharacterException("A field name of the " + what);
				}
				refuseNul(field.getValue(), what, child, skipped);
			}
		}
		else if (node.isArray()) {
			int index = 0;
			for (JsonNode element : node) {
				refuseNul(element, what, path + "[" + index++ + "]", skipped);
			}
		}
	}

	JsonMapper mapper() {
		return this.mapper;
	}

	/** A body that must be JSON came with another Content-Type, or none. */
	static final class NotJsonException extends RuntimeException {

		NotJsonException(@Nullable MediaType contentType) {
			super(message(contentType));
		}

		static String message(@Nullable MediaType contentType) {
			return "The request body must be JSON (Content-Type: application/json), not "
					+ ((contentType != null) ? contentType : "a body without a Content-Type");
		}

	}

}
