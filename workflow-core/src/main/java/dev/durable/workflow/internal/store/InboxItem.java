package dev.durable.workflow.internal.store;

/**
 * Input waiting in a run's inbox.
 *
 * @param id the inbox id (consumed by id)
 * @param kind what the item is
 * @param name signal or update name
 * @param payload encoded payload
 * @param messageId the update id of an update
 */
public record InboxItem(long id, InboxKind kind, String name, byte[] payload, String messageId) {

}
