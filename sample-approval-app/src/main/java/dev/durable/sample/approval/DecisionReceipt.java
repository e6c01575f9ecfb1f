package dev.durable.sample.approval;

import java.time.Instant;

/**
 * What the {@code decide} update answers once the workflow took the decision: the
 * approving client knows it counted.
 *
 * @param documentId the document
 * @param stage the stage decided
 * @param approver who decided
 * @param approved whether approved
 * @param at when the workflow took it
 */
public record DecisionReceipt(String documentId, ApprovalStage stage, String approver, boolean approved, Instant at) {
}
