package dev.durable.sample.loan;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.durable.workflow.client.QueryFailedException;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowPage;
import dev.durable.workflow.web.DurableProblems;

/**
 * The sample's own API, built on {@link WorkflowClient} (the generated {@code /durable}
 * endpoints are served beside it). See {@code sample-loan-app/README.md} for a walk
 * through it with curl.
 */
@RestController
@RequestMapping("/api/workflows")
class LoanController {

	private static final String WORKFLOW_TYPE = "home-loan";

	/**
	 * The longest a request waits for a loan to close (as the generated endpoints cap
	 * theirs).
	 */
	private static final Duration MAX_WAIT = Duration.ofSeconds(60);

	private final WorkflowClient client;

	private final LoanProperties properties;

	LoanController(WorkflowClient client, LoanProperties properties) {
		this.client = client;
		this.properties = properties;
	}

	/**
	 * Starts a home loan with its search attributes set from the start; the application
	 * id (generated when absent) is the workflow id. Without a body, an example
	 * application is used.
	 */
	@PostMapping
	ResponseEntity<StartedLoan> start(@RequestBody(required = false) LoanApplication body) {
		LoanApplication application = (body != null) ? body : LoanApplication.example(null);
		if (!StringUtils.hasText(application.applicationId())) {
			application = application.withApplicationId("loan-" + UUID.randomUUID());
		}
		if (application.closingWaitingPeriod() == null) {
			application = application.withClosingWaitingPeriod(this.properties.getClosingWaitingPeriod());
		}
		Map<String, Object> searchAttributes = Map.of(HomeLoanWorkflow.STATUS_ATTRIBUTE, LoanStatus.STARTED.name(),
				HomeLoanWorkflow.FAILED_ACTIVITY_ATTRIBUTE, "", HomeLoanWorkflow.APPLICANT_ATTRIBUTE,
				String.valueOf(application.applicantName()));
		WorkflowHandle<LoanResult> handle = this.client.start(HomeLoanWorkflow::run, application,
				StartOptions.builder()
					.workflowId(application.applicationId())
					.searchAttributes(searchAttributes)
					.build());
		StartedLoan started = new StartedLoan(handle.workflowId(), handle.runId());
		return ResponseEntity.created(URI.create("/api/workflows/" + handle.workflowId())).body(started);
	}

	/** Lists the loans, newest first, with their search attributes. */
	@GetMapping
	LoanPage list(@RequestParam(defaultValue = "50") int pageSize, @RequestParam(required = false) String pageToken) {
		return page(WorkflowFilter.ofType(WORKFLOW_TYPE), pageSize, pageToken);
	}

	/**
	 * Finds loans by search attributes, for example the ones waiting for a fix of their
	 * credit check: {@code ?status=PENDING_FIX&failedActivity=checkCredit}.
	 */
	@GetMapping("/search")
	LoanPage search(@RequestParam(required = false) String failedActivity,
			@RequestParam(required = false) LoanStatus status, @RequestParam(required = false) String applicant,
			@RequestParam(defaultValue = "50") int pageSize, @RequestParam(required = false) String pageToken) {
		WorkflowFilter filter = WorkflowFilter.ofType(WORKFLOW_TYPE);
		if (StringUtils.hasText(failedActivity)) {
			filter = filter.eq(HomeLoanWorkflow.FAILED_ACTIVITY_ATTRIBUTE, failedActivity);
		}
		if (status != null) {
			filter = filter.eq(HomeLoanWorkflow.STATUS_ATTRIBUTE, status.name());
		}
		if (StringUtils.hasText(applicant)) {
			filter = filter.eq(HomeLoanWorkflow.APPLICANT_ATTRIBUTE, applicant);
		}
		return page(filter, pageSize, pageToken);
	}

	/**
	 * Sends a fix: one field of the application and its new value. The id (generated when
	 * absent) makes a repeated fix harmless.
	 */
	@PostMapping("/{workflowId}/fix")
	ResponseEntity<RetryUpdate> fix(@PathVariable String workflowId, @RequestBody RetryUpdate body) {
		if (body.key() != null) {
			LoanApplication.example(null).with(body.key(), body.value()); // IllegalArgumentException:
																			// 400
		}
		RetryUpdate update = (body.id() != null) ? body
				: new RetryUpdate(body.key(), body.value(), UUID.randomUUID().toString());
		this.client.handle(workflowId).signal(HomeLoanWorkflow::fix, update, "fix-" + update.id());
		return ResponseEntity.accepted().body(update);
	}

	/**
	 * Describes a loan (latest run): its description, its state (a query), and the result
	 * or the failure once it is closed.
	 * @param wait how long to wait for the loan to close, for example {@code PT30S}
	 */
	@GetMapping("/{workflowId}")
	LoanView get(@PathVariable String workflowId, @RequestParam(required = false) Duration wait) {
		WorkflowHandle<LoanResult> handle = this.client.handle(workflowId, LoanResult.class);
		if (wait != null) {
			try {
				handle.result((wait.compareTo(MAX_WAIT) > 0) ? MAX_WAIT : wait);
			}
			catch (WorkflowHandle.WorkflowTimeoutException | WorkflowFailedException ex) {
				// still running, or failed: described below
			}
		}
		WorkflowDescription description = handle.describe();
		// pinned to the described run, so that state, result and description agree
		WorkflowHandle<Object> run = this.client.handle(workflowId, description.runId());
		LoanState state = state(run);
		if (!description.status().isClosed()) {
			return new LoanView(description, state, null, null);
		}
		try {
			return new LoanView(description, state, run.result(LoanResult.class), null);
		}
		catch (WorkflowFailedException ex) {
			return new LoanView(description, state, null, ex.getMessage());
		}
	}

	private static LoanState state(WorkflowHandle<Object> run) {
		try {
			return run.query(HomeLoanWorkflow::state);
		}
		catch (QueryFailedException | WorkflowClosedException ex) {
			return null;
		}
	}

	private LoanPage page(WorkflowFilter filter, int pageSize, String pageToken) {
		WorkflowPage page = this.client.list(filter, Math.clamp(pageSize, 1, 500), pageToken);
		List<LoanSummary> loans = page.executions().stream().map(LoanSummary::of).toList();
		return new LoanPage(loans, page.nextPageToken());
	}

	/**
	 * Errors as the generated {@code /durable} endpoints answer them: problem details
	 * with a stable {@code code} (404 WORKFLOW_NOT_FOUND, 400 INVALID_ID or
	 * INVALID_PAYLOAD, 409 WORKFLOW_CLOSED, ...).
	 */
	@ExceptionHandler(Exception.class)
	ResponseEntity<ProblemDetail> problem(Exception ex) {
		return DurableProblems.of(ex);
	}

	/**
	 * A loan just started.
	 *
	 * @param workflowId the workflow id (the application id)
	 * @param runId the run id
	 */
	record StartedLoan(String workflowId, UUID runId) {
	}

	/**
	 * One loan in a list.
	 *
	 * @param workflowId the workflow id
	 * @param runId the run id
	 * @param status the run's status
	 * @param loanStatus the {@code LoanStatus} search attribute
	 * @param failedActivity the {@code FailedActivity} search attribute
	 * @param searchAttributes every search attribute
	 */
	record LoanSummary(String workflowId, UUID runId, String status, Object loanStatus, Object failedActivity,
			Map<String, Object> searchAttributes) {

		static LoanSummary of(WorkflowExecution execution) {
			Map<String, Object> attributes = execution.searchAttributes();
			return new LoanSummary(execution.workflowId(), execution.runId(), execution.status().name(),
					attributes.get(HomeLoanWorkflow.STATUS_ATTRIBUTE),
					attributes.get(HomeLoanWorkflow.FAILED_ACTIVITY_ATTRIBUTE), attributes);
		}

	}

	/**
	 * A page of loans.
	 *
	 * @param loans the loans, newest first
	 * @param nextPageToken the token of the next page, {@code null} after the last
	 */
	record LoanPage(List<LoanSummary> loans, String nextPageToken) {
	}

	/**
	 * What is known of a loan.
	 *
	 * @param workflow the run's description: status, times, pending activities
	 * @param state the loan's state (the {@code state} query)
	 * @param result the result, once completed
	 * @param failure why it failed, once failed
	 */
	record LoanView(WorkflowDescription workflow, LoanState state, LoanResult result, String failure) {
	}

}
