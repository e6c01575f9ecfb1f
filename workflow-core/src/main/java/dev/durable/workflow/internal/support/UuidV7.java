package dev.durable.workflow.internal.support;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;

/**
 * Time-ordered UUIDs (version 7), monotonic within this JVM even when the clock stands
 * still.
 */
public final class UuidV7 {

	private static final SecureRandom RANDOM = new SecureRandom();

	private static long lastMillis;

	private static long counter;

	private UuidV7() {
	}

	public static synchronized UUID next(Instant now) {
		long millis = now.toEpochMilli();
		if (millis <= lastMillis) {
			millis = lastMillis;
			counter++;
			if (counter > 0xFFF) {
				millis++;
				counter = 0;
			}
		}
		else {
			counter = RANDOM.nextInt(0x800);
		}
		lastMillis = millis;
		long msb = (millis << 16) | 0x7000L | counter;
		long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
		return new UUID(msb, lsb);
	}

}
