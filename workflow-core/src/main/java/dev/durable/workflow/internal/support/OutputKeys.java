package dev.durable.workflow.internal.support;

import java.util.regex.Pattern;

/**
 * The keys of workflow events and streams: 1-128 letters, digits and {@code ._:@-}, so
 * that a key is a URL path segment as it is (the REST endpoints name it in the path).
 */
public final class OutputKeys {

	/** The longest key. */
	public static final int MAX_LENGTH = 128;

	private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._:@-]{1," + MAX_LENGTH + "}");

	private OutputKeys() {
	}

	/**
	 * The key, checked.
	 * @param what "event" or "stream", for the message
	 * @throws IllegalArgumentException when it is not a valid key
	 */
	public static String check(String key, String what) {
		if (key == null || !KEY.matcher(key).matches()) {
			throw new IllegalArgumentException(
					"Invalid " + what + " key '" + key + "': use 1-" + MAX_LENGTH + " letters, digits and . _ : @ -");
		}
		return key;
	}

}
