package dev.durable.docs.schedules;

/** The payload of the guide's batch signal. */
public record CarrierChange(String from, String to) {
}
