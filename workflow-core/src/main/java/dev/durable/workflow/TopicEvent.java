package dev.durable.workflow;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * An event a run received with {@link Workflows#awaitEvent}: recorded in the run's
 * history, so a replay returns the same one.
 *
 * @param topic the topic it was published on
 * @param eventId its id (the publisher's, or one the engine chose)
 * @param position its place on the topic (1, 2, ... in dispatch order); pass it to
 * {@link EventMatch#after(long)} to see the events that came after it
 * @param payload the payload, converted to the type the run asked for
 * @param publishedAt when it was published (the database's clock)
 * @param <T> the payload type
 */
public record TopicEvent<T>(String topic, String eventId, long position, @Nullable T payload, Instant publishedAt) {
}
