package dev.durable.workflow.payload;

import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.PayloadException;

/**
 * Turns values into stored bytes and back. The default is {@link #json()}, JSON through
 * the engine's own Jackson mapper; wrap it to add encryption
 * ({@link EncryptingPayloadConverter}) or compression.
 */
public interface PayloadConverter {

	/**
	 * The engine's default converter: JSON through a Jackson mapper the engine owns
	 * (unknown properties ignored), so that a later change of the application's mapper
	 * cannot break the replay of recorded payloads. Shared and thread-safe.
	 */
	static PayloadConverter json() {
		return JsonPayloadConverter.DEFAULT;
	}

	/**
	 * Encodes a value.
	 * @param value the value, may be {@code null}
	 * @param type the declared type of the value
	 * @return the payload; may be {@code null} for a {@code null} value (the default
	 * converter returns {@code null} then)
	 * @throws PayloadException when the value cannot be encoded
	 */
	byte @Nullable [] toPayload(@Nullable Object value, Type type);

	/**
	 * Decodes a payload.
	 * @param payload the bytes, may be {@code null} (decodes to {@code null})
	 * @param type the type to produce
	 * @return the value, {@code null} for a {@code null} payload (or a JSON {@code null})
	 * @throws PayloadException when the payload does not fit the type
	 */
	@Nullable Object fromPayload(byte @Nullable [] payload, Type type);

}
