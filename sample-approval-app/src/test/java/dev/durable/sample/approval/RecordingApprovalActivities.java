package dev.durable.sample.approval;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The activities for tests: they record every call, so that a test can count the
 * reminders sent and see who was notified of what.
 */
class RecordingApprovalActivities implements ApprovalActivities {

	final List<String> stored = new CopyOnWriteArrayList<>();

	final List<ApprovalNotice> notices = new CopyOnWriteArrayList<>();

	final List<ApprovalNotice> reminders = new CopyOnWriteArrayList<>();

	final List<DocumentStatus> authorNotices = new CopyOnWriteArrayList<>();

	@Override
	public String storeDocument(DocumentSubmission submission, int version) {
		String location = submission.documentId() + "/v" + version + ":" + submission.content();
		this.stored.add(location);
		return location;
	}

	@Override
	public String notifyApprover(ApprovalNotice notice) {
		this.notices.add(notice);
		return "notice-" + this.notices.size();
	}

	@Override
	public String sendReminder(ApprovalNotice notice, int reminder) {
		this.reminders.add(notice);
		return "reminder-" + this.reminders.size();
	}

	@Override
	public String notifyAuthor(String documentId, String author, DocumentStatus status, String detail) {
		this.authorNotices.add(status);
		return "author-" + this.authorNotices.size();
	}

	/** The reminders sent to the given approver. */
	long remindersTo(String approver) {
		return this.reminders.stream().filter((notice) -> notice.approver().equals(approver)).count();
	}

}
