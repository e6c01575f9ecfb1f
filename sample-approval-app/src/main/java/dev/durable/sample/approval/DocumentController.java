package dev.durable.sample.approval;

import java.net.URI;
import java.util.UUID;

import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.web.DurableProblems;

/**
 * The approval API, on {@link WorkflowClient}: submit a document, read its state, decide
 * (what an approval link calls; through the {@code decide} update, so the answer says
 * whether the decision counted) and resubmit after a rejection. The document id is the
 * workflow id.
 */
@RestController
@RequestMapping("/api/documents")
class DocumentController {

	private final WorkflowClient client;

	private final ApprovalProperties properties;

	DocumentController(WorkflowClient client, ApprovalProperties properties) {
		this.client = client;
		this.properties = properties;
	}

	/** Submits a document: starts its approval under the configured rules. */
	@PostMapping
	ResponseEntity<Submitted> submit(@RequestBody DocumentSubmission body) {
		DocumentSubmission submission = StringUtils.hasText(body.documentId()) ? body
				: body.withDocumentId("doc-" + UUID.randomUUID());
		ApprovalState initial = ApprovalState.submitted(submission, this.properties.toPolicy());
		WorkflowHandle<ApprovalState> handle = this.client.start(ApprovalWorkflow::run, initial,
				StartOptions.withId(submission.documentId()));
		return ResponseEntity.created(URI.create("/api/documents/" + handle.workflowId()))
			.body(new Submitted(handle.workflowId(), handle.runId()));
	}

	/** The approval as it stands (the latest run, also once it ended). */
	@GetMapping("/{documentId}")
	ApprovalState state(@PathVariable String documentId) {
		return this.client.handle(documentId, ApprovalState.class).query(ApprovalWorkflow::state);
	}

	/**
	 * Decides; answers once the workflow took the decision, or 422 UPDATE_REJECTED with
	 * why it does not count.
	 */
	@PostMapping("/{documentId}/decision")
	DecisionReceipt decide(@PathVariable String documentId, @RequestBody ApprovalDecision decision) {
		return this.client.handle(documentId, ApprovalState.class).update(ApprovalWorkflow::decide, decision);
	}

	/** Sends a revised version after a rejection that allows it. */
	@PostMapping("/{documentId}/resubmission")
	Resubmitted resubmit(@PathVariable String documentId, @RequestBody DocumentSubmission revised) {
		int number = this.client.handle(documentId, ApprovalState.class).update(ApprovalWorkflow::resubmit, revised);
		return new Resubmitted(documentId, number);
	}

	/**
	 * Errors as the generated {@code /durable} endpoints answer them: problem details
	 * with a stable {@code code}; a decision the workflow refuses is 422 UPDATE_REJECTED
	 * with the reason.
	 */
	@ExceptionHandler(Exception.class)
	ResponseEntity<ProblemDetail> problem(Exception ex) {
		return DurableProblems.of(ex);
	}

	/**
	 * A document just submitted.
	 *
	 * @param documentId the document id (the workflow id)
	 * @param runId the run id
	 */
	record Submitted(String documentId, UUID runId) {
	}

	/**
	 * A resubmission accepted.
	 *
	 * @param documentId the document id
	 * @param resubmission its number (1 for the first)
	 */
	record Resubmitted(String documentId, int resubmission) {
	}

}
