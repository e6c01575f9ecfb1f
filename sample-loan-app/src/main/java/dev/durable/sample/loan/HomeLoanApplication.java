package dev.durable.sample.loan;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * What an applicant submits: the input of {@link HomeLoanWorkflow}.
 *
 * @param applicationId the application id, also the workflow id
 * @param applicantName the applicant's name
 * @param ssn the applicant's social security number ({@code 123-45-6789})
 * @param employerName the employer, asked to verify the income
 * @param annualIncome the annual income in dollars
 * @param propertyAddress the address of the property
 * @param propertyId the property's parcel id
 * @param loanAmount the amount to borrow in dollars
 * @param downPayment the down payment in dollars
 * @param closingWaitingPeriod the waiting period between the approval (closing disclosure) and
 * the closing; three days when {@code null}
 */
public record HomeLoanApplication(String applicationId, String applicantName, String ssn, String employerName,
		BigDecimal annualIncome, String propertyAddress, String propertyId, BigDecimal loanAmount,
		BigDecimal downPayment, Duration closingWaitingPeriod) {

	/** The waiting period the law asks for after the closing disclosure. */
	public static final Duration DEFAULT_CLOSING_WAITING_PERIOD = Duration.ofDays(3);

	/** A complete application, for trying the sample without writing one. */
	public static HomeLoanApplication example(String applicationId) {
		return new HomeLoanApplication(applicationId, "Ada Lovelace", "123-45-6789", "Analytical Engines Ltd",
				new BigDecimal("185000"), "12 St James's Square, London", "PARCEL-1843", new BigDecimal("420000"),
				new BigDecimal("105000"), null);
	}

	public HomeLoanApplication withApplicationId(String applicationId) {
		return new HomeLoanApplication(applicationId, this.applicantName, this.ssn, this.employerName,
				this.annualIncome, this.propertyAddress, this.propertyId, this.loanAmount, this.downPayment,
				this.closingWaitingPeriod);
	}

	public HomeLoanApplication withClosingWaitingPeriod(Duration closingWaitingPeriod) {
		return new HomeLoanApplication(this.applicationId, this.applicantName, this.ssn, this.employerName,
				this.annualIncome, this.propertyAddress, this.propertyId, this.loanAmount, this.downPayment,
				closingWaitingPeriod);
	}

	/** The price of the property: the loan plus the down payment. */
	public BigDecimal purchasePrice() {
		return orZero(this.loanAmount).add(orZero(this.downPayment));
	}

	private static BigDecimal orZero(BigDecimal value) {
		return (value != null) ? value : BigDecimal.ZERO;
	}

}
