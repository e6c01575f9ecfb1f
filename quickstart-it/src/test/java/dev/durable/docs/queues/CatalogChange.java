package dev.durable.docs.queues;

/** The input of the guide's {@link ReindexWorkflow}. */
public record CatalogChange(long catalogId, String sku) {
}
