package dev.durable.docs.activities;

/** A price in cents. */
public record Price(long amount) {
}
