package dev.durable.sample.approval;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything an approval knows: what the query returns, what the run returns at its end,
 * and what a run passes whole to the next one when it continues as new (the input of
 * {@link ApprovalWorkflow#run}). Immutable: every change makes a new state.
 *
 * @param submission the document as last submitted
 * @param policy the rules of this approval
 * @param status where it stands
 * @param stage whose decision is awaited (or was last awaited)
 * @param currentApprover the approver of that stage
 * @param deadline when that stage's SLA (or the resubmission window) ends
 * @param decision the last decision taken, if any
 * @param auditTrail everything that happened, oldest first, over all runs
 * @param resubmissionCount how many revised versions were submitted
 * @param documentStored whether the current version is stored
 * @param remindersSent how many reminders were sent, over all runs
 * @param continuedAsNew how many times the approval continued as new
 */
public record ApprovalState(DocumentSubmission submission, ApprovalPolicy policy, DocumentStatus status,
		ApprovalStage stage, String currentApprover, Instant deadline, ApprovalDecision decision,
		List<AuditEntry> auditTrail, int resubmissionCount, boolean documentStored, int remindersSent,
		int continuedAsNew) {

	public ApprovalState {
		auditTrail = (auditTrail != null) ? List.copyOf(auditTrail) : List.of();
	}

	/**
	 * The state of a document just submitted, to start its approval with (the workflow
	 * writes the first line of the audit trail).
	 */
	public static ApprovalState submitted(DocumentSubmission submission, ApprovalPolicy policy) {
		return new ApprovalState(submission, policy, DocumentStatus.SUBMITTED, null, null, null, null, List.of(), 0,
				false, 0, 0);
	}

	/** The document id (the workflow id). */
	public String documentId() {
		return this.submission.documentId();
	}

	/** Whether the author may still resubmit a revised version. */
	public boolean mayResubmit() {
		return this.resubmissionCount < this.policy.maxResubmissions();
	}

	/** This state with one more line in the audit trail. */
	public ApprovalState audit(Instant at, String event, String actor, String detail) {
		List<AuditEntry> trail = new ArrayList<>(this.auditTrail);
		trail.add(new AuditEntry(at, event, actor, detail));
		return new ApprovalState(this.submission, this.policy, this.status, this.stage, this.currentApprover,
				this.deadline, this.decision, trail, this.resubmissionCount, this.documentStored, this.remindersSent,
				this.continuedAsNew);
	}

	/** This state with the current version stored. */
	public ApprovalState stored() {
		return new ApprovalState(this.submission, this.policy, this.status, this.stage, this.currentApprover,
				this.deadline, this.decision, this.auditTrail, this.resubmissionCount, true, this.remindersSent,
				this.continuedAsNew);
	}

	/** This state waiting for the decision of the given stage until the deadline. */
	public ApprovalState awaiting(ApprovalStage stage, Instant deadline) {
		DocumentStatus status = (stage == ApprovalStage.PRIMARY) ? DocumentStatus.AWAITING_PRIMARY
				: DocumentStatus.ESCALATED;
		return new ApprovalState(this.submission, this.policy, status, stage, this.policy.approverOf(stage), deadline,
				this.decision, this.auditTrail, this.resubmissionCount, this.documentStored, this.remindersSent,
				this.continuedAsNew);
	}

	/** This state with the given decision taken, and the status it leads to. */
	public ApprovalState decided(ApprovalDecision decision, DocumentStatus status, Instant deadline) {
		return new ApprovalState(this.submission, this.policy, status, this.stage, this.currentApprover, deadline,
				decision, this.auditTrail, this.resubmissionCount, this.documentStored, this.remindersSent,
				this.continuedAsNew);
	}

	/** This state in the given status (no deadline any more). */
	public ApprovalState withStatus(DocumentStatus status) {
		return new ApprovalState(this.submission, this.policy, status, this.stage, this.currentApprover, null,
				this.decision, this.auditTrail, this.resubmissionCount, this.documentStored, this.remindersSent,
				this.continuedAsNew);
	}

	/**
	 * This state after a revised version came: not stored yet, no decision yet, one more
	 * resubmission.
	 */
	public ApprovalState resubmitted(DocumentSubmission revised) {
		return new ApprovalState(revised, this.policy, DocumentStatus.SUBMITTED, null, null, null, null,
				this.auditTrail, this.resubmissionCount + 1, false, this.remindersSent, this.continuedAsNew);
	}

	/** This state with one more reminder sent. */
	public ApprovalState reminded() {
		return new ApprovalState(this.submission, this.policy, this.status, this.stage, this.currentApprover,
				this.deadline, this.decision, this.auditTrail, this.resubmissionCount, this.documentStored,
				this.remindersSent + 1, this.continuedAsNew);
	}

	/** This state as the next run receives it. */
	public ApprovalState continuing() {
		return new ApprovalState(this.submission, this.policy, this.status, this.stage, this.currentApprover,
				this.deadline, this.decision, this.auditTrail, this.resubmissionCount, this.documentStored,
				this.remindersSent, this.continuedAsNew + 1);
	}

}
