package dev.durable.sample.loan;

import java.util.ArrayList;
import java.util.List;

/**
 * The state of one home loan, kept by {@link HomeLoanWorkflow}: the application as corrected so
 * far, the status, the steps done, and the last failure. This is what a query will return once
 * the workflow gets its pause-and-fix handlers.
 */
public class LoanState {

	private HomeLoanApplication application;

	private LoanStatus status = LoanStatus.STARTED;

	private final List<String> completedActivities = new ArrayList<>();

	private String failedActivity;

	private String failureMessage;

	public LoanState() {
	}

	public LoanState(HomeLoanApplication application) {
		this.application = application;
	}

	public HomeLoanApplication getApplication() {
		return this.application;
	}

	public void setApplication(HomeLoanApplication application) {
		this.application = application;
	}

	public LoanStatus getStatus() {
		return this.status;
	}

	public void setStatus(LoanStatus status) {
		this.status = status;
	}

	public List<String> getCompletedActivities() {
		return this.completedActivities;
	}

	public String getFailedActivity() {
		return this.failedActivity;
	}

	public String getFailureMessage() {
		return this.failureMessage;
	}

	/** Records a step done: its activity and the status it reached. */
	void completed(String activity, LoanStatus reached) {
		this.completedActivities.add(activity);
		this.status = reached;
		this.failedActivity = null;
		this.failureMessage = null;
	}

	/** Records a step that failed for good. */
	void failed(String activity, String message) {
		this.failedActivity = activity;
		this.failureMessage = message;
	}

}
