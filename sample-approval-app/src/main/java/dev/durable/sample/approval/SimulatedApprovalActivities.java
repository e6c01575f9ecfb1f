package dev.durable.sample.approval;

import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

/**
 * The sample's document store and mailer: it logs what a real one would store and send.
 */
@Component
public class SimulatedApprovalActivities implements ApprovalActivities {

	private static final Logger logger = LoggerFactory.getLogger(SimulatedApprovalActivities.class);

	@Override
	public String storeDocument(DocumentSubmission submission, int version) {
		String location = "documents/" + submission.documentId() + "/v" + version;
		logger.info("Stored '{}' by {} as {}", submission.title(), submission.author(), location);
		return location;
	}

	@Override
	public String notifyApprover(ApprovalNotice notice) {
		logger.info("Mail to {}: please decide on '{}' ({}, {} stage) by {}: POST /api/documents/{}/decision",
				notice.approver(), notice.title(), notice.documentId(), notice.stage(), notice.deadline(),
				notice.documentId());
		return UUID.randomUUID().toString();
	}

	@Override
	public String sendReminder(ApprovalNotice notice, int reminder) {
		logger.info("Reminder {} to {}: '{}' ({}) awaits your decision until {}", reminder, notice.approver(),
				notice.title(), notice.documentId(), notice.deadline());
		return UUID.randomUUID().toString();
	}

	@Override
	public String notifyAuthor(String documentId, String author, DocumentStatus status, String detail) {
		logger.info("Mail to {}: document {} is {} ({})", author, documentId, status, detail);
		return UUID.randomUUID().toString();
	}

}
