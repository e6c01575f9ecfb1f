package dev.durable.docs.workflows;

/** The payload of the guide's {@code decision} signal. */
public record Decision(boolean approved, String by) {
}
