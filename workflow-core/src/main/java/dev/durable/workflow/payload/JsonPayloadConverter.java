package dev.durable.workflow.payload;

import java.lang.reflect.Type;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.durable.workflow.failure.PayloadException;

/**
 * The default converter: JSON through a mapper the engine owns, so a later change to the
 * application's mapper cannot break the replay of recorded payloads. Construct one with
 * your own {@link JsonMapper} only for payloads no recorded history holds yet.
 */
public final class JsonPayloadConverter implements PayloadConverter {

	/** The instance {@link PayloadConverter#json()} returns. */
	public static final JsonPayloadConverter DEFAULT = new JsonPayloadConverter();

	private final JsonMapper mapper;

	/** A converter with the engine's mapper: unknown properties are ignored. */
	public JsonPayloadConverter() {
		this(JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build());
	}

	/** A converter with the given mapper. */
	public JsonPayloadConverter(JsonMapper mapper) {
		this.mapper = mapper;
	}

	/** The mapper this converter reads and writes with. */
	public JsonMapper mapper() {
		return this.mapper;
	}

	@Override
	public byte[] toPayload(Object value, Type type) {
		try {
			if (value == null) {
				return null;
			}
			if (type == null || type == Object.class || type == void.class || type == Void.class) {
				return this.mapper.writeValueAsBytes(value);
			}
			return this.mapper.writerFor(this.mapper.constructType(type)).writeValueAsBytes(value);
		}
		catch (JacksonException ex) {
			throw new PayloadException(ex.getOriginalMessage(), false, ex);
		}
	}

	@Override
	public Object fromPayload(byte[] payload, Type type) {
		if (payload == null || type == void.class || type == Void.class) {
			return null;
		}
		try {
			return this.mapper.readValue(payload, this.mapper.constructType(type));
		}
		catch (JacksonException ex) {
			throw new PayloadException(ex.getOriginalMessage(), false, ex);
		}
	}

}
