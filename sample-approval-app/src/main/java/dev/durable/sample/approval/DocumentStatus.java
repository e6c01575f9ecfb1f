package dev.durable.sample.approval;

/** Where a document stands in its approval. */
public enum DocumentStatus {

	/** Received; being stored. */
	SUBMITTED,

	/** Waiting for the primary approver's decision, within the SLA. */
	AWAITING_PRIMARY,

	/**
	 * The primary approver let the SLA pass; waiting for the backup approver, within the
	 * backup SLA.
	 */
	ESCALATED,

	/**
	 * Rejected with a chance to resubmit; waiting for a revised version, within the
	 * resubmission window.
	 */
	AWAITING_RESUBMISSION,

	/** Approved (final). */
	APPROVED,

	/** Rejected (final): by an approver, or no revised version came within the window. */
	REJECTED,

	/** Neither approver decided in time (final). */
	AUTO_REJECTED;

	/** Whether the approval is over. */
	public boolean isFinal() {
		return this == APPROVED || this == REJECTED || this == AUTO_REJECTED;
	}

	/** Whether an approver's decision is awaited. */
	public boolean isAwaitingDecision() {
		return this == AWAITING_PRIMARY || this == ESCALATED;
	}

}
