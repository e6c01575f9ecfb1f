package dev.durable.sample.approval;

/**
 * Who is asked to decide: the primary approver first, the backup approver after an
 * escalation.
 */
public enum ApprovalStage {

	/** The primary approver, within the SLA. */
	PRIMARY,

	/** The backup approver, within the backup SLA. */
	BACKUP

}
