package dev.durable.workflow.client;

/**
 * One value of a workflow's stream, as a reader gets it.
 *
 * @param offset its place in the stream: 0 for the first value, then 1, 2, ... (read
 * again from {@code offset + 1} to go on after it)
 * @param value the value
 * @param <T> the value's type
 */
public record StreamEntry<T>(long offset, T value) {
}
