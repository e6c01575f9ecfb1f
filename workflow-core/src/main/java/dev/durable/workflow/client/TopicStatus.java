package dev.durable.workflow.client;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A topic of the namespace, as {@link WorkflowClient#topics()} lists it.
 *
 * @param topic the topic
 * @param lastPosition the position of its last dispatched event (0: none yet)
 * @param lastEventAt when its last event was dispatched, or {@code null}
 * @param waitingRuns the waits for its events under way (a run waiting twice counts
 * twice)
 * @param undispatchedEvents its events published and not dispatched yet
 */
public record TopicStatus(String topic, long lastPosition, @Nullable Instant lastEventAt, long waitingRuns,
		long undispatchedEvents) {
}
