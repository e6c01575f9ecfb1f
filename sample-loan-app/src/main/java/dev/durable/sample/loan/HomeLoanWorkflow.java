package dev.durable.sample.loan;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.slf4j.Logger;

import dev.durable.sample.loan.LoanActivities.Appraisal;
import dev.durable.sample.loan.LoanActivities.ClosedLoan;
import dev.durable.sample.loan.LoanActivities.CreditReport;
import dev.durable.sample.loan.LoanActivities.IncomeVerification;
import dev.durable.sample.loan.LoanActivities.TitleSearch;
import dev.durable.sample.loan.LoanActivities.UnderwritingDecision;
import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.Saga;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowInit;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.CanceledFailure;

/**
 * A home loan, from application to closing: verify the income, check the credit, order an
 * appraisal, search the title, underwrite, wait out the closing disclosure period (a
 * durable timer), and close.
 * <p>
 * Pause and fix: every step runs through {@link #recoverableStep}. When a step fails for
 * a reason no retry can cure (a non-retryable {@link ApplicationFailure}: a bad SSN, an
 * unknown employer, a parcel that does not exist), the loan records the failure,
 * advertises it in its search attributes ({@code LoanStatus=PENDING_FIX},
 * {@code FailedActivity}) and waits durably, holding no thread, for a {@link #fix}
 * signal; the fix patches the application and the step runs again. Transient faults are
 * retried by the activity retry policy; when its attempts run out the policy pauses the
 * step's activity ({@code loan.retry.pause-when-exhausted}): the loan waits, the activity
 * shown as paused, until an operator unpauses it (the outside system is back) or resets
 * it, and nothing here needs to know. With that setting off, a step that exhausts its
 * retries, a cancellation, or a bug in this class is not recoverable: the completed steps
 * are compensated in reverse order by a {@link Saga} (in a detached cancellation scope,
 * so that a cancelled loan still cleans up) and the loan fails.
 */
@Workflow("home-loan")
public class HomeLoanWorkflow {

	/** Search attribute: the {@link LoanStatus} name. */
	public static final String STATUS_ATTRIBUTE = "LoanStatus";

	/** Search attribute: the step waiting for a fix, empty when none. */
	public static final String FAILED_ACTIVITY_ATTRIBUTE = "FailedActivity";

	/** Search attribute: the applicant's name, set at start. */
	public static final String APPLICANT_ATTRIBUTE = "applicant";

	private static final Logger logger = Workflows.logger(HomeLoanWorkflow.class);

	private final LoanProperties properties;

	private LoanActivities activities;

	private LoanApplication application;

	private LoanStatus status = LoanStatus.STARTED;

	private String failedActivity;

	private String failureMessage;

	private final List<String> completedActivities = new ArrayList<>();

	private final List<String> compensatedActivities = new ArrayList<>();

	/**
	 * Undoes the completed steps; a step that cannot be undone must not keep the others
	 * from it.
	 */
	private final Saga saga = new Saga(Saga.Options.DEFAULT.withContinueWithError(true));

	private final List<FixEntry> fixHistory = new ArrayList<>();

	private final Set<String> seenFixIds = new HashSet<>();

	private int fixesReceived;

	public HomeLoanWorkflow(LoanProperties properties) {
		this.properties = properties;
	}

	@WorkflowInit
	public void init(LoanApplication application) {
		this.application = application;
		LoanProperties settings = (this.properties != null) ? this.properties : new LoanProperties();
		this.activities = Workflows.activities(LoanActivities.class, settings.activityOptions());
	}

	@WorkflowRun
	public LoanResult run(LoanApplication input) {
		logger.info("Home loan {} for {} started", input.applicationId(), input.applicantName());
		try {
			IncomeVerification income = recoverableStep("verifyIncome", LoanStatus.INCOME_VERIFIED,
					() -> this.activities.verifyIncome(this.application));
			CreditReport credit = recoverableStep("checkCredit", LoanStatus.CREDIT_CHECKED,
					() -> this.activities.checkCredit(this.application));
			Appraisal appraisal = recoverableStep("orderAppraisal", LoanStatus.APPRAISAL_ORDERED,
					() -> this.activities.orderAppraisal(this.application));
			TitleSearch title = recoverableStep("searchTitle", LoanStatus.TITLE_SEARCHED,
					() -> this.activities.searchTitle(this.application));
			UnderwritingDecision decision = recoverableStep("underwrite", LoanStatus.UNDERWRITTEN,
					() -> this.activities.underwrite(this.application, income, credit, appraisal, title));
			if (!decision.approved()) {
				logger.info("Home loan {} denied: {}", input.applicationId(), decision.reason());
				setStatus(LoanStatus.DENIED);
				return result(null, decision);
			}
			Duration waitingPeriod = (this.application.closingWaitingPeriod() != null)
					? this.application.closingWaitingPeriod() : LoanApplication.DEFAULT_CLOSING_WAITING_PERIOD;
			logger.info("Home loan {} approved at {}%; closing in {}", input.applicationId(), decision.interestRate(),
					waitingPeriod);
			Workflows.sleep(waitingPeriod);
			ClosedLoan closed = recoverableStep("closeLoan", LoanStatus.CLOSED,
					() -> this.activities.closeLoan(this.application, decision));
			logger.info("Home loan {} closed: loan {}", input.applicationId(), closed.loanNumber());
			return result(closed.loanNumber(), decision);
		}
		catch (ActivityFailure | CanceledFailure ex) {
			if (this.failureMessage == null) {
				this.failureMessage = message(ex);
			}
			logger.warn("Home loan {} failed for good: {}", input.applicationId(), this.failureMessage);
			Workflows.newDetachedCancellationScope(this::compensateAll).run();
			setStatus(LoanStatus.FAILED);
			throw ex;
		}
	}

	/**
	 * Corrects the application while a step waits for a fix; the step then runs again. A
	 * fix whose id was seen before is ignored; one naming an unknown field is recorded as
	 * rejected and does not wake the step.
	 */
	@SignalMethod
	public void fix(RetryUpdate update) {
		String id = (update.id() != null) ? update.id() : "fix-" + (this.fixHistory.size() + 1);
		if (!this.seenFixIds.add(id)) {
			logger.info("Home loan {}: fix {} was applied before; ignored", this.application.applicationId(), id);
			return;
		}
		String oldValue = null;
		if (update.key() != null) {
			try {
				oldValue = this.application.get(update.key());
				this.application = this.application.with(update.key(), update.value());
			}
			catch (IllegalArgumentException ex) {
				logger.warn("Home loan {}: fix {} rejected: {}", this.application.applicationId(), id, ex.getMessage());
				return;
			}
		}
		this.fixHistory
			.add(new FixEntry(this.failedActivity, update.key(), oldValue, update.value(), this.failureMessage, id));
		this.fixesReceived++;
	}

	/**
	 * The loan's state: status, steps done, the failure waiting for a fix, the fixes
	 * applied.
	 */
	@QueryMethod
	public LoanState state() {
		return new LoanState(this.status, this.failedActivity, this.failureMessage,
				List.copyOf(this.completedActivities), List.copyOf(this.compensatedActivities),
				List.copyOf(this.fixHistory), this.application);
	}

	/**
	 * Runs one step until it succeeds: on a failure no retry can cure, waits for a fix
	 * and runs the step again on the corrected application. Anything else (retries
	 * exhausted, cancellation, a bug here) propagates.
	 */
	private <T> T recoverableStep(String activity, LoanStatus reached, Supplier<T> call) {
		while (true) {
			try {
				T result = call.get();
				this.completedActivities.add(activity);
				this.saga.addCompensation(this::compensate, activity);
				this.failedActivity = null;
				this.failureMessage = null;
				setStatus(reached);
				return result;
			}
			catch (ActivityFailure failure) {
				if (!(failure.getCause() instanceof ApplicationFailure cause) || !cause.isNonRetryable()) {
					this.failedActivity = activity;
					this.failureMessage = message(failure);
					throw failure;
				}
				this.failedActivity = activity;
				this.failureMessage = cause.getMessage();
				logger.warn("Home loan {}: {} needs a fix: {}", this.application.applicationId(), activity,
						this.failureMessage);
				setStatus(LoanStatus.PENDING_FIX);
				int fixesBefore = this.fixesReceived;
				Workflows.await(() -> this.fixesReceived > fixesBefore);
				logger.info("Home loan {}: retrying {} after a fix", this.application.applicationId(), activity);
				setStatus(this.completedActivities.isEmpty() ? LoanStatus.STARTED : lastReached());
			}
		}
	}

	/**
	 * Undoes the completed steps, last first; only steps that completed have anything to
	 * undo.
	 */
	private void compensateAll() {
		try {
			this.saga.compensate();
		}
		catch (Saga.CompensationException ex) {
			// each failure was logged with its step; the loan fails with its own failure,
			// and a step
			// left undone is for an operator to clean up
		}
	}

	/** Undoes one step on the application as it is now (fixes included). */
	private void compensate(String activity) {
		try {
			this.activities.compensate(this.application, activity);
			this.compensatedActivities.add(activity);
		}
		catch (ActivityFailure ex) {
			logger.error("Home loan {}: compensating {} failed: {}", this.application.applicationId(), activity,
					message(ex));
			throw ex;
		}
	}

	private LoanStatus lastReached() {
		return switch (this.completedActivities.get(this.completedActivities.size() - 1)) {
			case "verifyIncome" -> LoanStatus.INCOME_VERIFIED;
			case "checkCredit" -> LoanStatus.CREDIT_CHECKED;
			case "orderAppraisal" -> LoanStatus.APPRAISAL_ORDERED;
			case "searchTitle" -> LoanStatus.TITLE_SEARCHED;
			default -> LoanStatus.UNDERWRITTEN;
		};
	}

	private void setStatus(LoanStatus status) {
		this.status = status;
		Map<String, Object> attributes = new LinkedHashMap<>();
		attributes.put(STATUS_ATTRIBUTE, status.name());
		attributes.put(FAILED_ACTIVITY_ATTRIBUTE,
				(status == LoanStatus.PENDING_FIX || status == LoanStatus.FAILED) && this.failedActivity != null
						? this.failedActivity : "");
		Workflows.upsertSearchAttributes(attributes);
	}

	private static String message(RuntimeException ex) {
		return (ex.getCause() != null && ex.getCause().getMessage() != null) ? ex.getCause().getMessage()
				: ex.getMessage();
	}

	private LoanResult result(String loanNumber, UnderwritingDecision decision) {
		return new LoanResult(this.application.applicationId(),
				(loanNumber != null) ? LoanStatus.CLOSED : LoanStatus.DENIED, loanNumber, decision.interestRate(),
				decision.reason(), List.copyOf(this.completedActivities), List.copyOf(this.fixHistory));
	}

}
