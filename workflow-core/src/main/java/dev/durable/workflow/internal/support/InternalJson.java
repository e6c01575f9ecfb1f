package dev.durable.workflow.internal.support;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;

import tools.jackson.databind.DeserializationFeature;

import dev.durable.workflow.RetryPolicy;
import tools.jackson.databind.json.JsonMapper;

/**
 * The engine's own JSON for what it stores about payloads (history rows, failures,
 * options). Independent of the user's converter and of any application mapper.
 */
public final class InternalJson {

	public static final JsonMapper MAPPER = JsonMapper.builder()
		.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.changeDefaultPropertyInclusion((incl) -> incl.withValueInclusion(JsonInclude.Include.NON_NULL))
		.addMixIn(RetryPolicy.class, RetryPolicyJson.class)
		.build();

	/**
	 * A retry policy's flag added after policies were first stored: written only when
	 * set, so that stored options read and write back byte for byte, and read as false
	 * when absent.
	 */
	abstract static class RetryPolicyJson {

		@JsonInclude(JsonInclude.Include.NON_DEFAULT)
		@JsonSetter(nulls = Nulls.AS_EMPTY)
		abstract boolean pauseWhenExhausted();

	}

	private static final int MAX_CACHED_OPTIONS = 256;

	// activity options repeat (one per call site, mostly): each scheduled activity stores
	// them
	private static final java.util.Map<Object, byte[]> OPTIONS = new java.util.concurrent.ConcurrentHashMap<>();

	private InternalJson() {
	}

	/**
	 * The JSON of an immutable value that repeats (activity options), written once per
	 * distinct value.
	 */
	public static byte[] writeCached(Object value) {
		byte[] cached = OPTIONS.get(value);
		if (cached != null) {
			return cached;
		}
		byte[] json = write(value);
		if (OPTIONS.size() >= MAX_CACHED_OPTIONS) {
			// options computed per call (timeouts from input): stop caching rather than
			// grow
			OPTIONS.clear();
		}
		OPTIONS.put(value, json);
		return json;
	}

	public static byte[] write(Object value) {
		return MAPPER.writeValueAsBytes(value);
	}

	public static <T> T read(byte[] bytes, Class<T> type) {
		return (bytes != null) ? MAPPER.readValue(bytes, type) : null;
	}

	/** Packs several payloads (activity arguments) into one. */
	public static byte[] pack(List<byte[]> parts) {
		List<String> encoded = new ArrayList<>(parts.size());
		for (byte[] part : parts) {
			encoded.add((part != null) ? Base64.getEncoder().encodeToString(part) : null);
		}
		return MAPPER.writeValueAsBytes(encoded);
	}

	public static List<byte[]> unpack(byte[] packed) {
		if (packed == null) {
			return List.of();
		}
		String[] encoded = MAPPER.readValue(packed, String[].class);
		List<byte[]> parts = new ArrayList<>(encoded.length);
		for (String part : encoded) {
			parts.add((part != null) ? Base64.getDecoder().decode(part) : null);
		}
		return parts;
	}

}
