package dev.durable.sample.approval;

import java.time.Instant;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;

/**
 * What an approval does outside the workflow: store the document and send messages.
 * Called from {@link ApprovalWorkflow}, each call is durable (recorded, retried, never
 * repeated once done). The application's implementation is
 * {@link SimulatedApprovalActivities}; tests register their own.
 */
@Activity
public interface ApprovalActivities {

	/**
	 * Stores a version of the document.
	 * @param submission the document
	 * @param version 1 for the first submission, 2 for the first resubmission, and so on
	 * @return where it is stored
	 */
	@ActivityMethod(startToCloseTimeout = "PT30S", maxAttempts = 5)
	String storeDocument(DocumentSubmission submission, int version);

	/**
	 * Asks an approver to decide (with the approval link).
	 * @param notice who, about what, until when
	 * @return a message id
	 */
	@ActivityMethod(startToCloseTimeout = "PT30S", maxAttempts = 5)
	String notifyApprover(ApprovalNotice notice);

	/**
	 * Reminds an approver that a decision is awaited.
	 * @param notice who, about what, until when
	 * @param reminder 1 for the first reminder of that stage, and so on
	 * @return a message id
	 */
	@ActivityMethod(startToCloseTimeout = "PT30S", maxAttempts = 3)
	String sendReminder(ApprovalNotice notice, int reminder);

	/**
	 * Tells the author how the approval ended, or that a revised version may be sent.
	 * @param documentId the document
	 * @param author the author
	 * @param status the document's status
	 * @param detail why
	 * @return a message id
	 */
	@ActivityMethod(startToCloseTimeout = "PT30S", maxAttempts = 5)
	String notifyAuthor(String documentId, String author, DocumentStatus status, String detail);

	/**
	 * A request for a decision.
	 *
	 * @param documentId the document
	 * @param title its title
	 * @param approver who is asked
	 * @param stage the primary approver, or the backup after an escalation
	 * @param deadline when the SLA ends
	 */
	record ApprovalNotice(String documentId, String title, String approver, ApprovalStage stage, Instant deadline) {
	}

}
