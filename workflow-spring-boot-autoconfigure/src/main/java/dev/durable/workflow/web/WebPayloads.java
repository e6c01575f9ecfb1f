package dev.durable.workflow.web;

import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

import dev.durable.workflow.PayloadException;

/**
 * Request bodies of the generated endpoints: size-checked, parsed as JSON and converted to the
 * parameter type of the workflow or handler they are for, so a wrong payload is refused with a
 * clear message before anything is written.
 */
public final class WebPayloads {

	private final JsonMapper mapper;

	private final int maxBytes;

	public WebPayloads(JsonMapper mapper, int maxBytes) {
		// absent booleans and numbers take their defaults; a misspelt option is an error, not ignored
		this.mapper = mapper.rebuild()
			.disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
			.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
			.build();
		this.maxBytes = maxBytes;
	}

	/** Parses a body; an empty body is JSON {@code null}. */
	JsonNode parse(byte @Nullable [] body) {
		if (body == null || body.length == 0) {
			return NullNode.getInstance();
		}
		if (body.length > this.maxBytes) {
			throw new PayloadException("The request body has " + body.length + " bytes; the limit is " + this.maxBytes
					+ " (durable.workflow.max-payload-size)", true, null);
		}
		try {
			return this.mapper.readTree(body);
		}
		catch (JacksonException ex) {
			throw new PayloadException("The request body is not valid JSON: " + ex.getOriginalMessage(), false, ex);
		}
	}

	/**
	 * Parses a body of an endpoint that takes only JSON: a Content-Type other than JSON is refused
	 * (415) rather than guessed at. No Content-Type is taken as JSON.
	 */
	JsonNode parseJson(byte @Nullable [] body, @Nullable String contentType) {
		if (contentType != null && !isJson(contentType)) {
			throw new NotJsonException(contentType);
		}
		return parse(body);
	}

	private static boolean isJson(String contentType) {
		try {
			MediaType type = MediaType.parseMediaType(contentType);
			return type.isCompatibleWith(MediaType.APPLICATION_JSON) || "json".equals(type.getSubtypeSuffix());
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
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
		catch (JacksonException | IllegalArgumentException ex) {
			String reason = (ex instanceof JacksonException jackson) ? jackson.getOriginalMessage() : ex.getMessage();
			throw new PayloadException("The payload is not a valid " + what + " (" + type.getTypeName() + "): " + reason,
					false, ex);
		}
	}

	JsonMapper mapper() {
		return this.mapper;
	}

	/** A body that must be JSON came with another Content-Type. */
	static final class NotJsonException extends RuntimeException {

		NotJsonException(String contentType) {
			super("The request body must be JSON (Content-Type: application/json), not " + contentType);
		}

	}

}
