package dev.durable.docs.queues;

/** The input of the guide's {@link PaymentWorkflow}. */
public record Payment(String id, String customerId, long amount, boolean urgent) {
}
