package dev.durable.sample.loan;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.slf4j.Logger;

import dev.durable.sample.loan.LoanActivities.Appraisal;
import dev.durable.sample.loan.LoanActivities.ClosedLoan;
import dev.durable.sample.loan.LoanActivities.CreditReport;
import dev.durable.sample.loan.LoanActivities.IncomeVerification;
import dev.durable.sample.loan.LoanActivities.TitleSearch;
import dev.durable.sample.loan.LoanActivities.UnderwritingDecision;
import dev.durable.workflow.ActivityFailure;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowInit;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;

/**
 * A home loan, from application to closing: verify the income, check the credit, order an
 * appraisal, search the title, underwrite, wait out the closing disclosure period (a durable
 * timer: it survives restarts, and no thread waits), and close.
 * <p>
 * Every step is an activity of {@link LoanActivities}, run through {@link #step}: once done, a
 * step is never repeated, even if the application restarts in the middle of the loan. A step that
 * fails for good fails the loan for now; pause-and-fix (a signal carrying a correction of the
 * application, and a query of the {@link LoanState}) will make {@link #step} wait for a fix and
 * retry instead.
 */
@Workflow("home-loan")
public class HomeLoanWorkflow {

	private static final Logger logger = Workflows.logger(HomeLoanWorkflow.class);

	private final LoanActivities activities;

	private LoanState state;

	public HomeLoanWorkflow(LoanActivities activities) {
		this.activities = activities;
	}

	@WorkflowInit
	public void init(HomeLoanApplication application) {
		this.state = new LoanState(application);
	}

	@WorkflowRun
	public LoanResult run(HomeLoanApplication application) {
		logger.info("Home loan {} for {} started", application.applicationId(), application.applicantName());
		IncomeVerification income = step("verifyIncome", LoanStatus.INCOME_VERIFIED,
				() -> this.activities.verifyIncome(application()));
		CreditReport credit = step("checkCredit", LoanStatus.CREDIT_CHECKED,
				() -> this.activities.checkCredit(application()));
		Appraisal appraisal = step("orderAppraisal", LoanStatus.APPRAISAL_ORDERED,
				() -> this.activities.orderAppraisal(application()));
		TitleSearch title = step("searchTitle", LoanStatus.TITLE_SEARCHED,
				() -> this.activities.searchTitle(application()));
		UnderwritingDecision decision = step("underwrite", LoanStatus.UNDERWRITTEN,
				() -> this.activities.underwrite(application(), income, credit, appraisal, title));
		if (!decision.approved()) {
			this.state.setStatus(LoanStatus.DENIED);
			logger.info("Home loan {} denied: {}", application.applicationId(), decision.reason());
			return result(null, decision);
		}
		Duration waitingPeriod = (application().closingWaitingPeriod() != null)
				? application().closingWaitingPeriod() : HomeLoanApplication.DEFAULT_CLOSING_WAITING_PERIOD;
		logger.info("Home loan {} approved at {}%; closing in {}", application.applicationId(),
				decision.interestRate(), waitingPeriod);
		Workflows.sleep(waitingPeriod);
		ClosedLoan closed = step("closeLoan", LoanStatus.CLOSED, () -> this.activities.closeLoan(application(), decision));
		logger.info("Home loan {} closed: loan {}", application.applicationId(), closed.loanNumber());
		return result(closed.loanNumber(), decision);
	}

	/**
	 * One step of the loan: runs its activity and records the status reached. The place where
	 * pause-and-fix goes: on a failure, set {@link LoanStatus#PENDING_FIX}, wait for a fix
	 * ({@code Workflows.await}) and run the activity again on the corrected application.
	 */
	private <T> T step(String activity, LoanStatus reached, Supplier<T> call) {
		try {
			T result = call.get();
			this.state.completed(activity, reached);
			return result;
		}
		catch (ActivityFailure failure) {
			String message = (failure.getCause() != null) ? failure.getCause().getMessage() : failure.getMessage();
			this.state.failed(activity, message);
			this.state.setStatus(LoanStatus.FAILED);
			logger.warn("Home loan {}: {} failed: {}", application().applicationId(), activity, message);
			throw failure;
		}
	}

	/** The application as corrected so far; every step reads it afresh. */
	private HomeLoanApplication application() {
		return this.state.getApplication();
	}

	private LoanResult result(String loanNumber, UnderwritingDecision decision) {
		return new LoanResult(application().applicationId(),
				(loanNumber != null) ? LoanStatus.CLOSED : LoanStatus.DENIED, loanNumber, decision.interestRate(),
				decision.reason(), List.copyOf(this.state.getCompletedActivities()));
	}

}
