package dev.durable.workflow;

import java.lang.reflect.Type;

/** A payload not yet converted to a Java type: failure details, dynamic handler arguments. */
public final class EncodedValue {

	private final byte[] payload;

	private final PayloadConverter converter;

	private final Object raw;

	private EncodedValue(byte[] payload, PayloadConverter converter, Object raw) {
		this.payload = payload;
		this.converter = converter;
		this.raw = raw;
	}

	/** Wraps encoded bytes. */
	public static EncodedValue of(byte[] payload, PayloadConverter converter) {
		return new EncodedValue(payload, converter, null);
	}

	/** Wraps a value not yet encoded; {@code null} for a {@code null} value. */
	public static EncodedValue of(Object value) {
		return (value != null) ? new EncodedValue(null, null, value) : null;
	}

	/** The value converted to the given type. */
	public <T> T get(Class<T> type) {
		return type.cast(get((Type) type));
	}

	/** The value converted to the given generic type. */
	public Object get(Type type) {
		if (this.converter == null) {
			return this.raw;
		}
		return this.converter.fromPayload(this.payload, type);
	}

	/** The encoded bytes, or {@code null} when the value was never encoded. */
	public byte[] payload() {
		return this.payload;
	}

	/** The value not yet encoded, or {@code null}. */
	public Object rawValue() {
		return this.raw;
	}

}
