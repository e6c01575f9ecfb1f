package dev.durable.sample.approval;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.slf4j.Logger;

import dev.durable.sample.approval.ApprovalActivities.ApprovalNotice;
import dev.durable.workflow.CancellationScope;
import dev.durable.workflow.Promise;
import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.UpdateValidator;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowInit;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.WorkflowStream;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.CanceledFailure;

/**
 * A document's approval, with SLAs: store the document, ask the primary approver, and
 * wait for a decision within the SLA while a reminder loop (its own coroutine, in a
 * cancellation scope) reminds the approver on an interval. A decision cancels the
 * reminders at once. When the SLA passes, the approval escalates to the backup approver
 * with a SLA of its own; when that passes too, the document is rejected automatically. A
 * rejection may allow a revised version within a window; each resubmission goes round
 * again.
 * <p>
 * The whole {@link ApprovalState} is the input of {@link #run}: a run that grew long (the
 * engine suggests it, or after {@link ApprovalPolicy#continueAsNewAfterResubmissions()}
 * resubmissions) continues as new with it at a safe point (between resubmissions, with no
 * handler running), and the audit trail goes on in the next run.
 * <p>
 * Decisions come through the {@code decide} update (validated: the approver of the
 * current stage, while a decision is awaited; the caller learns it took effect) or, fire
 * and forget, the {@code decision} signal (an invalid one is only written to the audit
 * trail).
 */
@Workflow("document-approval")
public class ApprovalWorkflow {

	private static final Logger logger = Workflows.logger(ApprovalWorkflow.class);

	private static final String SYSTEM = "system";

	/** The key of the stream of audit lines. */
	public static final String AUDIT_STREAM = "audit";

	private final ApprovalActivities activities;

	private ApprovalState state;

	/** The decision taken for the stage awaited, until the main method reads it. */
	private ApprovalDecision pendingDecision;

	/**
	 * A revised version received while resubmission is awaited, until the main method
	 * reads it.
	 */
	private DocumentSubmission pendingResubmission;

	public ApprovalWorkflow(ApprovalActivities activities) {
		this.activities = activities;
	}

	@WorkflowInit
	public void init(ApprovalState input) {
		this.state = input;
	}

	@WorkflowRun
	public ApprovalState run(ApprovalState input) {
		// a run continued as new streams the trail it carries again, so offsets count
		// over all runs
		publishAudit();
		if (this.state.auditTrail().isEmpty()) {
			audit(this.state.audit(now(), "SUBMITTED", this.state.submission().author(),
					this.state.submission().title()));
		}
		int resubmissionsThisRun = 0;
		while (true) {
			if (!this.state.documentStored()) {
				String location = this.activities.storeDocument(this.state.submission(),
						this.state.resubmissionCount() + 1);
				audit(this.state.stored().audit(now(), "STORED", SYSTEM, location));
			}
			ApprovalDecision decision = review();
			if (decision == null) {
				return close(DocumentStatus.AUTO_REJECTED, "AUTO_REJECTED", SYSTEM,
						"no decision within the SLA of " + this.state.policy().primaryApprover()
								+ " nor within the backup SLA of " + this.state.policy().backupApprover());
			}
			if (decision.approved()) {
				this.state = this.state.decided(decision, DocumentStatus.APPROVED, null);
				return close(DocumentStatus.APPROVED, "APPROVED", decision.approver(), decision.comment());
			}
			if (!decision.resubmissionAllowed() || !this.state.mayResubmit()) {
				this.state = this.state.decided(decision, DocumentStatus.REJECTED, null);
				return close(DocumentStatus.REJECTED, "REJECTED", decision.approver(), decision.comment());
			}
			DocumentSubmission revised = awaitResubmission(decision);
			if (revised == null) {
				return close(DocumentStatus.REJECTED, "RESUBMISSION_WINDOW_CLOSED", SYSTEM,
						"no revised version within " + this.state.policy().resubmissionWindow());
			}
			audit(this.state.resubmitted(revised)
				.audit(now(), "RESUBMITTED", revised.author(), "version " + (this.state.resubmissionCount() + 2)));
			resubmissionsThisRun++;
			if (continueAsNewDue(resubmissionsThisRun)) {
				Workflows.await(Workflows::allHandlersFinished);
				audit(this.state.continuing()
					.audit(now(), "CONTINUED_AS_NEW", SYSTEM, "after " + Workflows.info().historyLength() + " events"));
				Workflows.continueAsNew(this.state);
			}
		}
	}

	/**
	 * The primary approver, then the backup: the decision taken, or {@code null} when
	 * both SLAs passed.
	 */
	private ApprovalDecision review() {
		ApprovalDecision decision = awaitDecision(ApprovalStage.PRIMARY);
		if (decision != null) {
			return decision;
		}
		logger.info("Document {}: {} let the SLA pass; escalating to {}", this.state.documentId(),
				this.state.policy().primaryApprover(), this.state.policy().backupApprover());
		return awaitDecision(ApprovalStage.BACKUP);
	}

	/**
	 * One stage: notify its approver, remind on an interval, and wait for the decision
	 * within its SLA.
	 */
	private ApprovalDecision awaitDecision(ApprovalStage stage) {
		Instant deadline = now().plus(this.state.policy().slaOf(stage));
		this.pendingDecision = null;
		this.state = this.state.awaiting(stage, deadline);
		audit(this.state.audit(now(), (stage == ApprovalStage.PRIMARY) ? "AWAITING_PRIMARY" : "ESCALATED", SYSTEM,
				this.state.currentApprover() + " to decide by " + deadline));
		ApprovalNotice notice = new ApprovalNotice(this.state.documentId(), this.state.submission().title(),
				this.state.currentApprover(), stage, deadline);
		this.activities.notifyApprover(notice);

		CancellationScope reminders = Workflows.newCancellationScope(() -> remind(notice));
		Promise<Void> reminding = Workflows.async(() -> {
			try {
				reminders.run();
			}
			catch (CanceledFailure ex) {
				// a decision came, or the SLA passed
			}
		});
		Duration left = Duration.between(now(), deadline);
		boolean decided = Workflows.await(left, () -> this.pendingDecision != null);
		reminders.cancel(decided ? "decided" : "SLA passed");
		reminding.get();
		if (!decided) {
			audit(this.state.audit(now(), "SLA_PASSED", SYSTEM,
					this.state.currentApprover() + " did not decide by " + deadline));
		}
		return this.pendingDecision;
	}

	/**
	 * The reminder loop of one stage; runs until its scope is canceled or the deadline
	 * comes.
	 */
	private void remind(ApprovalNotice notice) {
		if (!this.state.policy().remindsApprovers()) {
			return;
		}
		int reminder = 0;
		while (true) {
			Workflows.sleep(this.state.policy().reminderInterval());
			if (!now().isBefore(notice.deadline())) {
				return;
			}
			reminder++;
			try {
				this.activities.sendReminder(notice, reminder);
				audit(this.state.reminded()
					.audit(now(), "REMINDED", SYSTEM, "reminder " + reminder + " to " + notice.approver()));
			}
			catch (ActivityFailure ex) {
				// a reminder that cannot be sent is not worth failing the approval for
				logger.warn("Document {}: reminder {} to {} failed: {}", notice.documentId(), reminder,
						notice.approver(), ex.getMessage());
			}
		}
	}

	/**
	 * After a rejection that allows it: the revised version, or {@code null} when the
	 * window closed.
	 */
	private DocumentSubmission awaitResubmission(ApprovalDecision rejection) {
		Duration window = this.state.policy().resubmissionWindow();
		Instant until = now().plus(window);
		this.pendingResubmission = null;
		audit(this.state.decided(rejection, DocumentStatus.AWAITING_RESUBMISSION, until)
			.audit(now(), "REJECTED", rejection.approver(),
					text(rejection.comment()) + " (a revised version may be sent until " + until + ")"));
		this.activities.notifyAuthor(this.state.documentId(), this.state.submission().author(),
				DocumentStatus.AWAITING_RESUBMISSION, "rejected by " + rejection.approver() + ": "
						+ text(rejection.comment()) + "; send a revised version by " + until);
		boolean resubmitted = Workflows.await(window, () -> this.pendingResubmission != null);
		return resubmitted ? this.pendingResubmission : null;
	}

	private boolean continueAsNewDue(int resubmissionsThisRun) {
		int threshold = this.state.policy().continueAsNewAfterResubmissions();
		return Workflows.info().continueAsNewSuggested() || (threshold > 0 && resubmissionsThisRun >= threshold);
	}

	private ApprovalState close(DocumentStatus status, String event, String actor, String detail) {
		audit(this.state.withStatus(status).audit(now(), event, actor, text(detail)));
		this.activities.notifyAuthor(this.state.documentId(), this.state.submission().author(), status, text(detail));
		logger.info("Document {}: {}", this.state.documentId(), status);
		Workflows.await(Workflows::allHandlersFinished);
		return this.state;
	}

	/**
	 * The approval as it stands: status, whose decision is awaited until when, the audit
	 * trail.
	 */
	@QueryMethod
	public ApprovalState state() {
		return this.state;
	}

	/**
	 * Takes a decision, and answers once the workflow took it (what an approval link
	 * calls).
	 * @param decision the decision
	 * @return what was taken
	 */
	@UpdateMethod
	public DecisionReceipt decide(ApprovalDecision decision) {
		String problem = problemWith(decision);
		if (problem != null) {
			// validated just before; kept in case the state moved in between
			throw ApplicationFailure.newNonRetryableFailure(problem, "DecisionNotAccepted");
		}
		this.pendingDecision = decision;
		return new DecisionReceipt(this.state.documentId(), this.state.stage(), decision.approver(),
				decision.approved(), now());
	}

	/** Rejects a decision that cannot count (this adds nothing to the history). */
	@UpdateValidator(update = "decide")
	public void validateDecide(ApprovalDecision decision) {
		String problem = problemWith(decision);
		if (problem != null) {
			throw new IllegalArgumentException(problem);
		}
	}

	/**
	 * Takes a decision, fire and forget; one that cannot count is only written to the
	 * audit trail.
	 * @param decision the decision
	 */
	@SignalMethod
	public void decision(ApprovalDecision decision) {
		String problem = problemWith(decision);
		if (problem != null) {
			audit(this.state.audit(now(), "DECISION_IGNORED", (decision != null) ? decision.approver() : null,
					problem));
			return;
		}
		this.pendingDecision = decision;
	}

	/**
	 * Sends a revised version after a rejection that allows it.
	 * @param revised the revised document (its id may be left out)
	 * @return the number of this resubmission (1 for the first)
	 */
	@UpdateMethod
	public int resubmit(DocumentSubmission revised) {
		String problem = problemWithResubmission(revised);
		if (problem != null) {
			throw ApplicationFailure.newNonRetryableFailure(problem, "ResubmissionNotAccepted");
		}
		this.pendingResubmission = revised.withDocumentId(this.state.documentId());
		return this.state.resubmissionCount() + 1;
	}

	/** Rejects a resubmission that is not awaited. */
	@UpdateValidator(update = "resubmit")
	public void validateResubmit(DocumentSubmission revised) {
		String problem = problemWithResubmission(revised);
		if (problem != null) {
			throw new IllegalArgumentException(problem);
		}
	}

	private String problemWith(ApprovalDecision decision) {
		if (decision == null || decision.approver() == null || decision.approver().isBlank()) {
			return "A decision needs an approver";
		}
		if (!this.state.status().isAwaitingDecision()) {
			return "Document " + this.state.documentId() + " awaits no decision (it is " + this.state.status() + ")";
		}
		if (this.pendingDecision != null) {
			return "Document " + this.state.documentId() + " was already decided by " + this.pendingDecision.approver();
		}
		if (!decision.approver().equalsIgnoreCase(this.state.currentApprover())) {
			return decision.approver() + " is not the approver of document " + this.state.documentId() + " at the "
					+ this.state.stage() + " stage (" + this.state.currentApprover() + " is)";
		}
		return null;
	}

	private String problemWithResubmission(DocumentSubmission revised) {
		if (revised == null) {
			return "A resubmission needs the revised document";
		}
		if (this.state.status() != DocumentStatus.AWAITING_RESUBMISSION || this.pendingResubmission != null) {
			return "Document " + this.state.documentId() + " awaits no resubmission (it is " + this.state.status()
					+ ")";
		}
		if (revised.documentId() != null && !revised.documentId().equals(this.state.documentId())) {
			return "The revised document's id " + revised.documentId() + " is not " + this.state.documentId();
		}
		return null;
	}

	/**
	 * The state after a change that added to the audit trail: the new lines also go to
	 * the {@code audit} stream, which clients read live (Server-Sent Events at
	 * {@code /durable/workflows/{id}/streams/audit}); the line at offset n is the trail's
	 * n-th.
	 */
	private void audit(ApprovalState next) {
		this.state = next;
		publishAudit();
	}

	private void publishAudit() {
		WorkflowStream audit = Workflows.stream(AUDIT_STREAM);
		List<AuditEntry> trail = this.state.auditTrail();
		for (long line = audit.nextOffset(); line < trail.size(); line++) {
			audit.write(trail.get((int) line));
		}
	}

	private static Instant now() {
		return Workflows.now();
	}

	private static String text(String text) {
		return (text != null) ? text : "";
	}

}
