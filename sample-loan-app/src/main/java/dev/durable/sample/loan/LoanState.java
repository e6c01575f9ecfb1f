package dev.durable.sample.loan;

import java.util.List;

/**
 * The queryable state of one home loan, as {@link HomeLoanWorkflow#state()} answers it.
 *
 * @param status where the loan stands
 * @param failedActivity the step waiting for a fix (or that failed for good), else
 * {@code null}
 * @param failureMessage why it failed
 * @param completedActivities the steps done, in order
 * @param compensatedActivities the steps undone by compensation, in the order they were
 * undone
 * @param fixHistory the fixes applied, in order
 * @param application the application as corrected so far
 */
public record LoanState(LoanStatus status, String failedActivity, String failureMessage,
		List<String> completedActivities, List<String> compensatedActivities, List<FixEntry> fixHistory,
		LoanApplication application) {

}
