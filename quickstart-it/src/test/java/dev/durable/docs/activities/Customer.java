package dev.durable.docs.activities;

/** A customer, as {@link Pricing} finds it. */
public record Customer(String id, int discountPercent) {
}
