package dev.durable.workflow.internal.support;

import java.lang.reflect.Type;

import dev.durable.workflow.PayloadConverter;
import dev.durable.workflow.PayloadException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The default converter: JSON through a mapper the engine owns, so a later change to the
 * application's mapper cannot break the replay of recorded payloads.
 */
public final class JsonPayloadConverter implements PayloadConverter {

	/** The instance {@link PayloadConverter#json()} returns. */
	public static final JsonPayloadConverter DEFAULT = new JsonPayloadConverter();

	private final JsonMapper mapper;

	public JsonPayloadConverter() {
		this(JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build());
	}

	public JsonPayloadConverter(JsonMapper mapper) {
		this.mapper = mapper;
	}

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
