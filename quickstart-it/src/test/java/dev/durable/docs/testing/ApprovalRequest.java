package dev.durable.docs.testing;

/** The input of {@link ApprovalWorkflow}. */
public record ApprovalRequest(String documentId) {
}
