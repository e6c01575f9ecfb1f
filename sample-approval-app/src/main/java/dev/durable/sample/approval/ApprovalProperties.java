package dev.durable.sample.approval;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The approval rules, under {@code approval.*} in {@code application.yaml}. Each
 * submission takes them as its {@link ApprovalPolicy}.
 *
 * @param sla how long the primary approver has (default 48 hours)
 * @param backupSla how long the backup approver has after an escalation (default 48
 * hours)
 * @param reminderInterval how often the current approver is reminded (default 12 hours;
 * zero: never)
 * @param resubmissionWindow how long the author has to resubmit after a rejection that
 * allows it (default 7 days)
 * @param maxResubmissions how many resubmissions a document may have (default 3)
 * @param continueAsNewAfterResubmissions continue as new after this many resubmissions in
 * one run (default 0: only when the engine suggests it)
 * @param approvers who decides
 */
@ConfigurationProperties("approval")
public record ApprovalProperties(@DefaultValue("48h") Duration sla, @DefaultValue("48h") Duration backupSla,
		@DefaultValue("12h") Duration reminderInterval, @DefaultValue("7d") Duration resubmissionWindow,
		@DefaultValue("3") int maxResubmissions, @DefaultValue("0") int continueAsNewAfterResubmissions,
		@DefaultValue Approvers approvers) {

	/** The policy a new submission follows. */
	public ApprovalPolicy toPolicy() {
		return new ApprovalPolicy(this.approvers.primary(), this.approvers.backup(), this.sla, this.backupSla,
				this.reminderInterval, this.resubmissionWindow, this.maxResubmissions,
				this.continueAsNewAfterResubmissions);
	}

	/**
	 * The approvers.
	 *
	 * @param primary who decides first (default {@code alice@example.com})
	 * @param backup who decides after an escalation (default {@code bob@example.com})
	 */
	public record Approvers(@DefaultValue("alice@example.com") String primary,
			@DefaultValue("bob@example.com") String backup) {
	}

}
