package dev.durable.workflow;

import java.lang.reflect.Type;

/**
 * Turns values into stored bytes and back. The default is JSON through the engine's own Jackson
 * mapper; wrap it to add encryption or compression.
 */
public interface PayloadConverter {

	/**
	 * Encodes a value.
	 * @param value the value, may be {@code null}
	 * @param type the declared type of the value
	 * @return the payload
	 * @throws PayloadException when the value cannot be encoded
	 */
	byte[] toPayload(Object value, Type type);

	/**
	 * Decodes a payload.
	 * @param payload the bytes, may be {@code null} (decodes to {@code null})
	 * @param type the type to produce
	 * @return the value
	 * @throws PayloadException when the payload does not fit the type
	 */
	Object fromPayload(byte[] payload, Type type);

}
