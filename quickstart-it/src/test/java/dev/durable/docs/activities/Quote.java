package dev.durable.docs.activities;

/** The result of {@link QuoteWorkflow}. */
public record Quote(String customerId, long amount) {
}
