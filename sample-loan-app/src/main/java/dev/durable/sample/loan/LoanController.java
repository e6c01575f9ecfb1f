package dev.durable.sample.loan;

import java.net.URI;
import java.time.Duration;
import java.util.UUID;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
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

import dev.durable.workflow.client.InvalidWorkflowIdException;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;

/**
 * A small API to try the sample:
 *
 * <pre>
 * curl -i -X POST localhost:8080/api/loans                     # an example application
 * curl -i -X POST localhost:8080/api/loans -H 'Content-Type: application/json' \
 *      -d '{"applicationId":"loan-42","applicantName":"Grace Hopper","ssn":"987-65-4321",
 *           "employerName":"US Navy","annualIncome":150000,"propertyAddress":"1 Main St",
 *           "propertyId":"P-7","loanAmount":300000,"downPayment":75000}'
 * curl localhost:8080/api/loans/loan-42                        # status, and the result once done
 * curl 'localhost:8080/api/loans/loan-42?wait=PT30S'           # waits up to 30 s for the result
 * </pre>
 */
@RestController
@RequestMapping("/api/loans")
class LoanController {

	private final WorkflowClient client;

	private final Duration closingWaitingPeriod;

	LoanController(WorkflowClient client,
			@Value("${loan.closing-waiting-period:PT72H}") Duration closingWaitingPeriod) {
		this.client = client;
		this.closingWaitingPeriod = closingWaitingPeriod;
	}

	/**
	 * Starts a home loan; the application id (generated when absent) is the workflow id. Without
	 * a body, an example application is used.
	 */
	@PostMapping
	ResponseEntity<StartedLoan> start(@RequestBody(required = false) HomeLoanApplication body) {
		HomeLoanApplication application = (body != null) ? body : HomeLoanApplication.example(null);
		if (!StringUtils.hasText(application.applicationId())) {
			application = application.withApplicationId("loan-" + UUID.randomUUID());
		}
		if (application.closingWaitingPeriod() == null) {
			application = application.withClosingWaitingPeriod(this.closingWaitingPeriod);
		}
		WorkflowHandle<LoanResult> handle = this.client.start(HomeLoanWorkflow::run, application,
				StartOptions.withId(application.applicationId()));
		StartedLoan started = new StartedLoan(handle.workflowId(), handle.runId());
		return ResponseEntity.created(URI.create("/api/loans/" + handle.workflowId())).body(started);
	}

	/**
	 * Describes a loan (latest run), with the result or the failure once it is closed.
	 * @param wait how long to wait for the loan to close, for example {@code PT30S}
	 */
	@GetMapping("/{applicationId}")
	LoanView get(@PathVariable String applicationId, @RequestParam(required = false) Duration wait) {
		WorkflowHandle<LoanResult> handle = this.client.handle(applicationId, LoanResult.class);
		if (wait != null) {
			try {
				handle.result(wait);
			}
			catch (WorkflowHandle.WorkflowTimeoutException | WorkflowFailedException ex) {
				// still running, or failed: described below
			}
		}
		WorkflowDescription description = handle.describe();
		if (!description.status().isClosed()) {
			return new LoanView(description, null, null);
		}
		// pinned to the described run, so that result and description agree
		WorkflowHandle<Object> run = this.client.handle(applicationId, description.runId());
		try {
			return new LoanView(description, run.result(LoanResult.class), null);
		}
		catch (WorkflowFailedException ex) {
			return new LoanView(description, null, ex.getMessage());
		}
	}

	@ExceptionHandler(WorkflowNotFoundException.class)
	ProblemDetail notFound(WorkflowNotFoundException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
	}

	@ExceptionHandler(WorkflowAlreadyStartedException.class)
	ProblemDetail alreadyStarted(WorkflowAlreadyStartedException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
	}

	@ExceptionHandler(InvalidWorkflowIdException.class)
	ProblemDetail invalidId(InvalidWorkflowIdException ex) {
		return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
	}

	/**
	 * A loan just started.
	 * @param workflowId the workflow id (the application id)
	 * @param runId the run id
	 */
	record StartedLoan(String workflowId, UUID runId) {
	}

	/**
	 * What is known of a loan.
	 * @param workflow the run's description: status, times, pending activities
	 * @param result the result, once completed
	 * @param failure why it failed, once failed
	 */
	record LoanView(WorkflowDescription workflow, LoanResult result, String failure) {
	}

}
