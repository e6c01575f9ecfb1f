package dev.durable.docs.events;

import java.time.Instant;

/** A value of the guide's {@code progress} stream. */
public record Progress(String part, Instant at) {
}
