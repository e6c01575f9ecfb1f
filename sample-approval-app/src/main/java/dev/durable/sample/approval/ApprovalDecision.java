package dev.durable.sample.approval;

/**
 * What an approver decided.
 *
 * @param approver who decides; must be the approver of the current stage
 * @param approved whether the document is approved
 * @param comment an optional comment, kept in the audit trail
 * @param allowResubmission for a rejection: whether the author may send a revised version
 * (absent: no)
 */
public record ApprovalDecision(String approver, boolean approved, String comment, Boolean allowResubmission) {

	/** Whether this is a rejection that lets the author send a revised version. */
	public boolean resubmissionAllowed() {
		return !this.approved && Boolean.TRUE.equals(this.allowResubmission);
	}

	/** An approval by the given approver. */
	public static ApprovalDecision approve(String approver, String comment) {
		return new ApprovalDecision(approver, true, comment, false);
	}

	/** A rejection by the given approver, with or without a chance to resubmit. */
	public static ApprovalDecision reject(String approver, String comment, boolean allowResubmission) {
		return new ApprovalDecision(approver, false, comment, allowResubmission);
	}

}
