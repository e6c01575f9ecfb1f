package dev.durable.workflow.payload;

import java.lang.reflect.Type;

import org.jspecify.annotations.Nullable;

/**
 * A payload not yet converted to a Java type: failure details, dynamic handler arguments.
 */
public final class EncodedValue {

	private final byte @Nullable [] payload;

	private final @Nullable PayloadConverter converter;

	private final @Nullable Object raw;

	private EncodedValue(byte @Nullable [] payload, @Nullable PayloadConverter converter, @Nullable Object raw) {
		this.payload = payload;
		this.converter = converter;
		this.raw = raw;
	}

	/**
	 * Wraps encoded bytes; {@code null} bytes (a message without payload) convert to
	 * {@code null}.
	 */
	public static EncodedValue of(byte @Nullable [] payload, PayloadConverter converter) {
		return new EncodedValue(payload, converter, null);
	}

	/** Wraps a value not yet encoded; {@code null} for a {@code null} value. */
	public static @Nullable EncodedValue of(@Nullable Object value) {
		return (value != null) ? new EncodedValue(null, null, value) : null;
	}

	/**
	 * The value converted to the given type; {@code null} when the payload is
	 * {@code null}.
	 */
	public <T> @Nullable T get(Class<T> type) {
		return type.cast(get((Type) type));
	}

	/**
	 * The value converted to the given generic type; {@code null} when the payload is
	 * {@code null}.
	 */
	public @Nullable Object get(Type type) {
		if (this.converter == null) {
			return this.raw;
		}
		return this.converter.fromPayload(this.payload, type);
	}

	/** The encoded bytes, or {@code null} when the value was never encoded. */
	public byte @Nullable [] payload() {
		return this.payload;
	}

	/** The value not yet encoded, or {@code null}. */
	public @Nullable Object rawValue() {
		return this.raw;
	}

}
