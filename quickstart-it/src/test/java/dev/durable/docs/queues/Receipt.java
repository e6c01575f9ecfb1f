package dev.durable.docs.queues;

/** The result of the guide's {@code charge} activity. */
public record Receipt(String paymentId) {
}
