package dev.durable.sample.approval;

import java.time.Duration;

/**
 * The rules one approval follows, fixed when the document is submitted (from
 * {@link ApprovalProperties}) and carried in its {@link ApprovalState}, so that a change
 * of the configuration applies to new submissions only and a run never changes its rules
 * half-way.
 *
 * @param primaryApprover who decides first
 * @param backupApprover who decides once the primary approver let the SLA pass
 * @param sla how long the primary approver has
 * @param backupSla how long the backup approver has
 * @param reminderInterval how often the current approver is reminded while the decision
 * is awaited (zero or negative: never)
 * @param resubmissionWindow how long the author has to resubmit after a rejection that
 * allows it
 * @param maxResubmissions how many resubmissions a document may have in all
 * @param continueAsNewAfterResubmissions continue as new after this many resubmissions in
 * one run (zero: only when the engine suggests it)
 */
public record ApprovalPolicy(String primaryApprover, String backupApprover, Duration sla, Duration backupSla,
		Duration reminderInterval, Duration resubmissionWindow, int maxResubmissions,
		int continueAsNewAfterResubmissions) {

	/** The approver of the given stage. */
	public String approverOf(ApprovalStage stage) {
		return (stage == ApprovalStage.PRIMARY) ? this.primaryApprover : this.backupApprover;
	}

	/** The SLA of the given stage. */
	public Duration slaOf(ApprovalStage stage) {
		return (stage == ApprovalStage.PRIMARY) ? this.sla : this.backupSla;
	}

	/** Whether reminders are sent at all. */
	public boolean remindsApprovers() {
		return this.reminderInterval != null && this.reminderInterval.isPositive();
	}

}
