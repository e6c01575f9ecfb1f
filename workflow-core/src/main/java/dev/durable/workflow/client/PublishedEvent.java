package dev.durable.workflow.client;

/**
 * What {@link WorkflowClient#publish} answers.
 *
 * @param topic the topic
 * @param eventId the event's id (the caller's, or one the engine chose)
 * @param stored {@code true} when this call stored the event; {@code false} when an event
 * with this id was already published on the topic (the repeat changed nothing)
 */
public record PublishedEvent(String topic, String eventId, boolean stored) {
}
