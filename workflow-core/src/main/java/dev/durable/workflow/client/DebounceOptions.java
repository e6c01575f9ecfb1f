package dev.durable.workflow.client;

import java.time.Duration;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Options of a debounced start ({@link WorkflowClient#debounce}): calls with the same key
 * within {@code delay} of each other collapse into one run, started {@code delay} after
 * the last call with the last call's input, and at the latest {@code maxWait} after the
 * first call of the window (so that a steady stream of calls still starts runs).
 *
 * @param key what identifies the calls that collapse (per namespace): 1-255 letters,
 * digits and {@code ._:@-}
 * @param delay quiet time after the last call before the run starts; positive
 * @param maxWait the longest a window may last from its first call; at least
 * {@code delay}
 * @param startOptions the options of the run it starts (the last call's); {@code null}
 * for the defaults. Without a workflow id the window's run gets a random one, chosen at
 * its first call. A workflow id in use when the window fires follows the options' id
 * policies; a start they refuse is dropped (and logged).
 */
public record DebounceOptions(String key, Duration delay, Duration maxWait, @Nullable StartOptions startOptions) {

	private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._:@-]{1,255}");

	/**
	 * @throws IllegalArgumentException for a bad key, a delay that is not positive or a
	 * maxWait below the delay
	 */
	public DebounceOptions {
		if (key == null || !KEY.matcher(key).matches()) {
			throw new IllegalArgumentException(
					"Invalid debounce key '" + key + "': use 1-255 letters, digits and ._:@-");
		}
		if (delay == null || delay.isNegative() || delay.isZero()) {
			throw new IllegalArgumentException("The debounce delay must be positive: " + delay);
		}
		if (maxWait == null || maxWait.compareTo(delay) < 0) {
			throw new IllegalArgumentException(
					"The debounce maxWait (" + maxWait + ") must be at least the delay (" + delay + ")");
		}
		if (startOptions != null && (startOptions.startDelay() != null || startOptions.cronSchedule() != null
				|| startOptions.requestId() != null)) {
			throw new IllegalArgumentException("A debounced start takes no startDelay, cronSchedule or requestId:"
					+ " the debounce decides when it starts, and collapses repeated calls by itself");
		}
	}

	/**
	 * Debounces by key with the given quiet time and bound, and default start options.
	 */
	public static DebounceOptions of(String key, Duration delay, Duration maxWait) {
		return new DebounceOptions(key, delay, maxWait, null);
	}

	/** These options with the given start options. */
	public DebounceOptions withStartOptions(@Nullable StartOptions options) {
		return new DebounceOptions(this.key, this.delay, this.maxWait, options);
	}

}
