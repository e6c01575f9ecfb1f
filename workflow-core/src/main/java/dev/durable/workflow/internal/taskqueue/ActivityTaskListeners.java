package dev.durable.workflow.internal.taskqueue;

import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Who the activity task worker tells of its attempts.
 *
 * @param observer hears each attempt run and fail
 * @param wakeRun wakes a run (its id, its owner or {@code null}) whose inbox got an
 * outcome
 * @param slotFreed tells the other nodes that a slot of a limited task queue is free
 */
public record ActivityTaskListeners(AttemptObserver observer, BiConsumer<UUID, UUID> wakeRun,
		Consumer<String> slotFreed) {
}
