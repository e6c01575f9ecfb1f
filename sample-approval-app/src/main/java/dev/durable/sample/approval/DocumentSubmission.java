package dev.durable.sample.approval;

/**
 * A document sent for approval, or a revised version of it sent again after a rejection.
 *
 * @param documentId the document id, also the workflow id (generated when absent)
 * @param title the title
 * @param author who submitted it; told of the outcome
 * @param content the text (or a link to it)
 */
public record DocumentSubmission(String documentId, String title, String author, String content) {

	/** This submission under the given document id. */
	public DocumentSubmission withDocumentId(String documentId) {
		return new DocumentSubmission(documentId, this.title, this.author, this.content);
	}

}
