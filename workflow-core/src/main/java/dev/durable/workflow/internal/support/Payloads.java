package dev.durable.workflow.internal.support;

import java.nio.charset.StandardCharsets;

import java.lang.reflect.Type;

import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.failure.PayloadUnreadableException;
import dev.durable.workflow.payload.EncodedValue;
import dev.durable.workflow.payload.EncryptingPayloadConverter;
import dev.durable.workflow.payload.PayloadConverter;

/** The engine's view of payloads: the user's converter plus the size limit. */
public final class Payloads {

	private final PayloadConverter converter;

	private final int maxBytes;

	public Payloads(PayloadConverter converter, int maxBytes) {
		this.converter = converter;
		this.maxBytes = maxBytes;
	}

	public PayloadConverter converter() {
		return this.converter;
	}

	/**
	 * Encodes a value as its declared type.
	 * @throws PayloadException when the value is not data ({@link NonData}), cannot be
	 * serialized or is too large
	 */
	public byte[] encode(Object value, Type type, String what) {
		// checked before the converter, which would write a thread or a stream as a bean
		// of its getters
		String problem = NonData.valueProblem(value);
		if (problem != null) {
			throw new PayloadException("Cannot serialize " + what + ": it is " + problem
					+ ", not a data object (payloads are recorded as JSON and read back later, maybe elsewhere);"
					+ " return data (a record, bytes) or a reference (an id, a path, a URL)", false, null);
		}
		byte[] bytes;
		try {
			bytes = this.converter.toPayload(value, type);
		}
		catch (PayloadException ex) {
			throw new PayloadException("Cannot serialize " + what + ": " + ex.getMessage(), false, ex);
		}
		catch (RuntimeException ex) {
			throw new PayloadException("Cannot serialize " + what + ": " + ex.getMessage(), false, ex);
		}
		if (bytes != null && bytes.length > this.maxBytes) {
			throw new PayloadException(what + " is " + bytes.length + " bytes, over the limit of " + this.maxBytes
					+ " bytes (durable.workflow.max-payload-size)", true, null);
		}
		return bytes;
	}

	public Object decode(byte[] payload, Type type, String what) {
		if (type == EncodedValue.class) {
			return EncodedValue.of(payload, this.converter); // converted
			// later,
			// by
			// its
			// reader
		}
		try {
			return this.converter.fromPayload(payload, type);
		}
		catch (PayloadUnreadableException ex) {
			// kept apart: the stored bytes, not the caller, are at fault (a server-side
			// problem over REST)
			throw new PayloadUnreadableException("Cannot read " + what + ": " + ex.getMessage(), ex);
		}
		catch (RuntimeException ex) {
			throw new PayloadException(
					"Cannot deserialize " + what + " as " + type.getTypeName() + ": " + ex.getMessage(), false, ex);
		}
	}

	/**
	 * A JSON document (an event's payload, which the database matches as plain JSON) as
	 * the converter stores payloads: encrypted when it encrypts.
	 */
	public static byte[] storedFromJson(PayloadConverter converter, String json) {
		byte[] plain = json.getBytes(StandardCharsets.UTF_8);
		return (converter instanceof EncryptingPayloadConverter encrypting) ? encrypting.encrypt(plain) : plain;
	}

	/**
	 * The converter that writes plain JSON: the wrapped one of an encrypting converter.
	 */
	public static PayloadConverter plain(PayloadConverter converter) {
		return (converter instanceof EncryptingPayloadConverter encrypting) ? encrypting.delegate() : converter;
	}

}
