package dev.durable.workflow.web;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.failure.PayloadException;

/**
 * The {@code wait} parameter of the endpoints that wait for an outcome: none is no wait,
 * a negative one is refused, and any longer than {@link #MAX} waits {@link #MAX} (a
 * request holds a server thread; a client waits longer by asking again).
 */
final class Waits {

	/**
	 * The longest a request waits for a result or an update's outcome before answering
	 * 202.
	 */
	static final Duration MAX = Duration.ofSeconds(60);

	private Waits() {
	}

	static Duration bounded(@Nullable Duration wait) {
		if (wait == null) {
			return Duration.ZERO;
		}
		if (wait.isNegative()) {
			throw new PayloadException("'wait' must not be negative, was " + wait, false, null);
		}
		return (wait.compareTo(MAX) > 0) ? MAX : wait;
	}

}
