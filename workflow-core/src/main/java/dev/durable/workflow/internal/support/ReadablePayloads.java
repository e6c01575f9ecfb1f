package dev.durable.workflow.internal.support;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.payload.EncryptingPayloadConverter;
import dev.durable.workflow.payload.JsonPayloadConverter;
import dev.durable.workflow.payload.PayloadConverter;

/**
 * The form of a payload in an exported history ({@code handle.history()}, the REST
 * history): the decoded JSON value when the engine's converter writes JSON (also through
 * {@link EncryptingPayloadConverter}, decrypted when the key is there); otherwise an
 * object {@code {"$encoded": "<base64 of the stored bytes>"}}, with
 * {@code "$undecodable": "<why>"} when decoding failed (an unknown key id, say). The
 * {@code $} keys keep the stored bytes, so that a replayer with the right converter can
 * still read such a payload.
 */
public final class ReadablePayloads {

	public static final String ENCODED = "$encoded";

	public static final String UNDECODABLE = "$undecodable";

	private ReadablePayloads() {
	}

	/** The readable form of stored bytes. */
	public static Object toReadable(byte[] payload, PayloadConverter converter) {
		if (payload == null) {
			return null;
		}
		byte[] plain = payload;
		PayloadConverter inner = converter;
		try {
			while (inner instanceof EncryptingPayloadConverter encrypting) {
				plain = encrypting.decrypt(plain);
				inner = encrypting.delegate();
			}
			if (!(inner instanceof JsonPayloadConverter)) {
				return encoded(payload, null);
			}
			return InternalJson.MAPPER.readValue(plain, Object.class);
		}
		catch (RuntimeException ex) {
			return encoded(payload, (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName());
		}
	}

	/**
	 * The stored bytes of a readable form, for replay: the bytes kept in
	 * {@code $encoded}, or the value encoded again with the converter the history is
	 * replayed with.
	 */
	public static byte[] fromReadable(Object readable, PayloadConverter converter) {
		if (readable instanceof Map<?, ?> map && map.get(ENCODED) instanceof String encoded
				&& map.keySet().stream().allMatch((k) -> ENCODED.equals(k) || UNDECODABLE.equals(k))) {
			byte[] stored = Base64.getDecoder().decode(encoded);
			if (converter instanceof JsonPayloadConverter && EncryptingPayloadConverter.isEncrypted(stored)) {
				throw new PayloadException("The history holds a payload encrypted with key id '"
						+ EncryptingPayloadConverter.keyId(stored) + "' that was exported undecrypted; replay it with"
						+ " the engine's EncryptingPayloadConverter (WorkflowReplayer.Options.withPayloadConverter)",
						false, null);
			}
			return stored;
		}
		return converter.toPayload(readable, Object.class);
	}

	private static Map<String, Object> encoded(byte[] payload, String problem) {
		Map<String, Object> value = new LinkedHashMap<>();
		if (problem != null) {
			value.put(UNDECODABLE, problem);
		}
		value.put(ENCODED, Base64.getEncoder().encodeToString(payload));
		return value;
	}

}
