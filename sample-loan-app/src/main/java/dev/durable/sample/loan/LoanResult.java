package dev.durable.sample.loan;

import java.math.BigDecimal;
import java.util.List;

/**
 * How a home loan ended: the result of {@link HomeLoanWorkflow}.
 *
 * @param applicationId the application id
 * @param status {@link LoanStatus#CLOSED} or {@link LoanStatus#DENIED}
 * @param loanNumber the number of the funded loan, when closed
 * @param interestRate the annual interest rate in percent, when approved
 * @param reason why underwriting decided as it did
 * @param completedActivities the steps done, in order
 * @param fixHistory the fixes applied on the way
 */
public record LoanResult(String applicationId, LoanStatus status, String loanNumber, BigDecimal interestRate,
		String reason, List<String> completedActivities, List<FixEntry> fixHistory) {

}
