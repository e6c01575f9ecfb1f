package dev.durable.docs.workflows;

/** An order of the guide's examples. */
public record Order(String id, String customerId, long total) {
}
