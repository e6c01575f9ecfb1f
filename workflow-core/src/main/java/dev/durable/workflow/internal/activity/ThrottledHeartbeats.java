package dev.durable.workflow.internal.activity;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Heartbeats of an attempt written to its row at most once an interval: an activity may
 * heartbeat in a tight loop, its row need not follow each call. The same for inline and
 * task-queue attempts.
 */
public final class ThrottledHeartbeats {

	/** At most one write a second, unless a heartbeat timeout needs them more often. */
	public static final Duration INTERVAL = Duration.ofSeconds(1);

	private ThrottledHeartbeats() {
	}

	/**
	 * The interval that keeps a row fresh for a heartbeat timeout: {@link #INTERVAL}, or
	 * half the timeout when that is shorter (a sweep that judges the row must see a beat
	 * in time).
	 */
	public static Duration intervalFor(Duration heartbeatTimeout) {
		return (heartbeatTimeout != null && heartbeatTimeout.dividedBy(2).compareTo(INTERVAL) < 0)
				? heartbeatTimeout.dividedBy(2) : INTERVAL;
	}

	/**
	 * A sink for {@link ActivityAttempt} that hands a heartbeat to {@code write} (the
	 * details and the time) when {@code interval} has passed since the last one it handed
	 * on.
	 */
	public static Consumer<byte[]> sink(Clock clock, Duration interval, BiConsumer<byte[], Instant> write) {
		Instant[] lastWritten = { Instant.MIN };
		return (details) -> {
			Instant now = clock.instant();
			if (Duration.between(lastWritten[0], now).compareTo(interval) >= 0) {
				lastWritten[0] = now;
				write.accept(details, now);
			}
		};
	}

}
