package dev.durable.docs.workflows;

/** The input of the guide's {@link AuditWorkflow}. */
public record AuditEntry(String text) {
}
