package dev.durable.sample.loan;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * What an applicant submits: the input of {@link HomeLoanWorkflow}. A fix
 * ({@link RetryUpdate}) replaces one field; see {@link #with(String, String)}.
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
 * @param closingWaitingPeriod the waiting period between the approval (closing
 * disclosure) and the closing; {@link #DEFAULT_CLOSING_WAITING_PERIOD} when {@code null}
 * (the controller fills it in from {@code loan.closing-waiting-period})
 */
public record LoanApplication(String applicationId, String applicantName, String ssn, String employerName,
		BigDecimal annualIncome, String propertyAddress, String propertyId, BigDecimal loanAmount,
		BigDecimal downPayment, Duration closingWaitingPeriod) {

	/** The waiting period the law asks for after the closing disclosure. */
	public static final Duration DEFAULT_CLOSING_WAITING_PERIOD = Duration.ofDays(3);

	/** A complete application, for trying the sample without writing one. */
	public static LoanApplication example(String applicationId) {
		return new LoanApplication(applicationId, "Ada Lovelace", "123-45-6789", "Analytical Engines Ltd",
				new BigDecimal("185000"), "12 St James's Square, London", "PARCEL-1843", new BigDecimal("420000"),
				new BigDecimal("105000"), null);
	}

	public LoanApplication withApplicationId(String applicationId) {
		return new LoanApplication(applicationId, this.applicantName, this.ssn, this.employerName, this.annualIncome,
				this.propertyAddress, this.propertyId, this.loanAmount, this.downPayment, this.closingWaitingPeriod);
	}

	public LoanApplication withClosingWaitingPeriod(Duration closingWaitingPeriod) {
		return new LoanApplication(this.applicationId, this.applicantName, this.ssn, this.employerName,
				this.annualIncome, this.propertyAddress, this.propertyId, this.loanAmount, this.downPayment,
				closingWaitingPeriod);
	}

	/**
	 * This application with one field replaced, as a fix asks.
	 * @param field one of
	 * {@code applicantName, ssn, employerName, annualIncome, propertyAddress,
	 * propertyId, loanAmount, downPayment}
	 * @param value the new value (a number for the amounts)
	 * @throws IllegalArgumentException for another field, or an amount that is not a
	 * number
	 */
	public LoanApplication with(String field, String value) {
		String name = this.applicantName;
		String ssn = this.ssn;
		String employer = this.employerName;
		BigDecimal income = this.annualIncome;
		String address = this.propertyAddress;
		String property = this.propertyId;
		BigDecimal amount = this.loanAmount;
		BigDecimal down = this.downPayment;
		switch (String.valueOf(field)) {
			case "applicantName" -> name = value;
			case "ssn" -> ssn = value;
			case "employerName" -> employer = value;
			case "annualIncome" -> income = amount(field, value);
			case "propertyAddress" -> address = value;
			case "propertyId" -> property = value;
			case "loanAmount" -> amount = amount(field, value);
			case "downPayment" -> down = amount(field, value);
			default ->
				throw new IllegalArgumentException("No field '" + field + "' can be fixed in a loan application");
		}
		return new LoanApplication(this.applicationId, name, ssn, employer, income, address, property, amount, down,
				this.closingWaitingPeriod);
	}

	/**
	 * The current value of a field {@link #with(String, String)} can replace, as text.
	 */
	public String get(String field) {
		Object value = switch (String.valueOf(field)) {
			case "applicantName" -> this.applicantName;
			case "ssn" -> this.ssn;
			case "employerName" -> this.employerName;
			case "annualIncome" -> this.annualIncome;
			case "propertyAddress" -> this.propertyAddress;
			case "propertyId" -> this.propertyId;
			case "loanAmount" -> this.loanAmount;
			case "downPayment" -> this.downPayment;
			default ->
				throw new IllegalArgumentException("No field '" + field + "' can be fixed in a loan application");
		};
		return (value != null) ? value.toString() : null;
	}

	/** The price of the property: the loan plus the down payment. */
	public BigDecimal purchasePrice() {
		return orZero(this.loanAmount).add(orZero(this.downPayment));
	}

	private static BigDecimal amount(String field, String value) {
		try {
			return new BigDecimal(value);
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException(field + " must be a number, not '" + value + "'");
		}
	}

	private static BigDecimal orZero(BigDecimal value) {
		return (value != null) ? value : BigDecimal.ZERO;
	}

}
