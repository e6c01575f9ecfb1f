package dev.durable.docs.activities;

import java.util.List;

/** The input of {@link QuoteWorkflow}. */
public record QuoteRequest(String customerId, List<String> items) {
}
