package dev.durable.docs.workflows;

/** The result of the guide's {@code charge} activity. */
public record Receipt(String id) {
}
