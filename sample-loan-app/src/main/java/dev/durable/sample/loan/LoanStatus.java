package dev.durable.sample.loan;

/** Where a home loan stands. */
public enum LoanStatus {

	/** Submitted; no step done yet. */
	STARTED,

	INCOME_VERIFIED,

	CREDIT_CHECKED,

	APPRAISAL_ORDERED,

	TITLE_SEARCHED,

	/** Approved by underwriting; waiting for the closing. */
	UNDERWRITTEN,

	/** Closed: the loan is funded. */
	CLOSED,

	/** Declined by underwriting. */
	DENIED,

	/**
	 * A step failed for good and waits for a correction of the application
	 * (pause-and-fix).
	 */
	PENDING_FIX,

	/** A step failed for good. */
	FAILED

}
