package dev.durable.sample.loan;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.failure.ApplicationFailure;

/**
 * The steps of a home loan, talking to (simulated) outside parties: the employer, the
 * credit bureau, the appraiser, the title company, underwriting and closing. A bean made
 * by the auto-configuration, since the class carries {@code @Activity}; called from
 * {@link HomeLoanWorkflow}, each call is durable: recorded, retried on failure, never
 * repeated once done.
 * <p>
 * A step that cannot succeed with the data given (an SSN in the wrong format, an unknown
 * employer, a parcel id that does not exist) throws a non-retryable
 * {@link ApplicationFailure}: the workflow pauses for a fix. Transient faults, injected
 * at {@code loan.transient-failure-rate}, throw any other exception and are retried by
 * the policy of {@code loan.retry}. The rules come from {@link LoanProperties}.
 */
@Activity
public class LoanActivities {

	private static final Logger logger = LoggerFactory.getLogger(LoanActivities.class);

	private static final BigDecimal TWELVE = BigDecimal.valueOf(12);

	private static final Pattern SSN = Pattern.compile("(?!000|666|9\\d\\d)\\d{3}-(?!00)\\d{2}-(?!0000)\\d{4}");

	private final LoanProperties properties;

	public LoanActivities(LoanProperties properties) {
		this.properties = properties;
	}

	/**
	 * The employer confirms the income; an employer outside {@code loan.known-employers}
	 * cannot.
	 */
	@ActivityMethod
	public IncomeVerification verifyIncome(LoanApplication application) {
		work("verifyIncome",
				"verifying the income of " + application.applicantName() + " with " + application.employerName());
		String employer = application.employerName();
		if (employer == null || this.properties.getKnownEmployers().stream().noneMatch(employer::equalsIgnoreCase)) {
			throw ApplicationFailure.newNonRetryableFailure(
					"Unknown employer '" + employer + "': the income cannot be verified", "UnknownEmployer");
		}
		if (application.annualIncome() == null || application.annualIncome().signum() <= 0) {
			throw ApplicationFailure.newNonRetryableFailure(
					employer + " does not confirm an annual income of " + application.annualIncome(),
					"IncomeNotVerifiable");
		}
		BigDecimal monthly = application.annualIncome().divide(TWELVE, 2, RoundingMode.HALF_UP);
		return new IncomeVerification(employer, monthly);
	}

	/**
	 * The credit bureau reports the score; it knows valid SSNs only
	 * ({@code 123-45-6789}).
	 */
	@ActivityMethod
	public CreditReport checkCredit(LoanApplication application) {
		work("checkCredit", "checking the credit of " + application.applicantName());
		if (application.ssn() == null || !SSN.matcher(application.ssn()).matches()) {
			throw ApplicationFailure.newNonRetryableFailure(
					"The credit bureau knows no SSN '" + application.ssn() + "' (expected 123-45-6789)", "InvalidSsn");
		}
		int score = 640 + Math.floorMod(application.ssn().hashCode(), 181);
		return new CreditReport("Simulated Credit Bureau", score);
	}

	/**
	 * An appraiser values the property; a parcel id outside {@code loan.property-ids}
	 * does not exist.
	 */
	@ActivityMethod
	public Appraisal orderAppraisal(LoanApplication application) {
		work("orderAppraisal", "appraising " + application.propertyAddress());
		requireKnownProperty(application);
		int basisPoints = 9500 + Math.floorMod(application.propertyId().hashCode(), 1500);
		BigDecimal value = application.purchasePrice()
			.multiply(BigDecimal.valueOf(basisPoints))
			.divide(BigDecimal.valueOf(10000), 0, RoundingMode.HALF_UP);
		return new Appraisal("Simulated Appraisals Inc.", value);
	}

	/** A title company searches the public records for liens on the property. */
	@ActivityMethod
	public TitleSearch searchTitle(LoanApplication application) {
		work("searchTitle", "searching the title of " + application.propertyId());
		requireKnownProperty(application);
		if (application.propertyAddress() == null || application.propertyAddress().isBlank()) {
			throw ApplicationFailure.newNonRetryableFailure("No property address: the title cannot be searched",
					"MissingAddress");
		}
		return new TitleSearch("Simulated Title Co.", List.of());
	}

	/** Underwriting decides, from what the other steps found. */
	@ActivityMethod
	public UnderwritingDecision underwrite(LoanApplication application, IncomeVerification income, CreditReport credit,
			Appraisal appraisal, TitleSearch title) {
		work("underwrite", "underwriting " + application.applicationId());
		if (application.loanAmount() == null || application.loanAmount().signum() <= 0) {
			throw ApplicationFailure.newNonRetryableFailure(
					"The loan amount must be positive, not " + application.loanAmount(), "InvalidLoanAmount");
		}
		if (application.loanAmount().compareTo(this.properties.getMaximumLoanAmount()) > 0) {
			throw ApplicationFailure.newNonRetryableFailure("The loan amount " + application.loanAmount()
					+ " is above the largest loan offered, " + this.properties.getMaximumLoanAmount(),
					"LoanAmountTooLarge");
		}
		if (application.downPayment() == null || application.downPayment().signum() < 0) {
			throw ApplicationFailure.newNonRetryableFailure(
					"The down payment must not be negative, not " + application.downPayment(), "InvalidDownPayment");
		}
		BigDecimal loanToValue = application.loanAmount().divide(appraisal.value(), MathContext.DECIMAL64);
		BigDecimal payment = monthlyPayment(application.loanAmount(), new BigDecimal("6.5"));
		BigDecimal debtToIncome = payment.divide(income.monthlyIncome(), MathContext.DECIMAL64);
		int minimumScore = this.properties.getMinimumCreditScore();
		if (credit.score() < minimumScore) {
			return UnderwritingDecision.declined("credit score " + credit.score() + " is below " + minimumScore);
		}
		if (loanToValue.compareTo(new BigDecimal("0.95")) > 0) {
			return UnderwritingDecision.declined("loan-to-value " + percent(loanToValue) + " is above 95%");
		}
		if (debtToIncome.compareTo(new BigDecimal("0.43")) > 0) {
			return UnderwritingDecision.declined("debt-to-income " + percent(debtToIncome) + " is above 43%");
		}
		if (!title.liens().isEmpty()) {
			return UnderwritingDecision.declined("the title has liens: " + title.liens());
		}
		BigDecimal rate = new BigDecimal("5.75")
			.add(BigDecimal.valueOf(Math.max(0, 760 - credit.score())).multiply(new BigDecimal("0.01")))
			.setScale(3, RoundingMode.HALF_UP);
		return new UnderwritingDecision(true, rate, "credit score " + credit.score() + ", loan-to-value "
				+ percent(loanToValue) + ", debt-to-income " + percent(debtToIncome));
	}

	/** The loan is signed and funded. */
	@ActivityMethod
	public ClosedLoan closeLoan(LoanApplication application, UnderwritingDecision decision) {
		work("closeLoan", "closing " + application.applicationId() + " at " + decision.interestRate() + "%");
		if (application.applicantName() == null || application.applicantName().isBlank()) {
			throw ApplicationFailure.newNonRetryableFailure("No applicant name: nobody can sign the closing papers",
					"MissingSignatory");
		}
		String loanNumber = "HL-" + (100_000_000 + ThreadLocalRandom.current().nextInt(900_000_000));
		return new ClosedLoan(loanNumber);
	}

	/**
	 * Undoes a completed step (saga compensation): withdraws the verification request,
	 * the credit inquiry, the appraisal order, the title hold or the underwriting file.
	 * @return what was undone
	 */
	@ActivityMethod
	public String compensate(LoanApplication application, String activity) {
		String undone = switch (activity) {
			case "verifyIncome" -> "income verification request to " + application.employerName() + " withdrawn";
			case "checkCredit" -> "credit inquiry withdrawn";
			case "orderAppraisal" -> "appraisal of " + application.propertyId() + " cancelled";
			case "searchTitle" -> "title hold on " + application.propertyId() + " released";
			case "underwrite" -> "underwriting file closed";
			default -> "nothing to undo for " + activity;
		};
		work("compensate", application.applicationId() + ": " + undone);
		return undone;
	}

	private void requireKnownProperty(LoanApplication application) {
		if (application.propertyId() == null || !this.properties.getPropertyIds().contains(application.propertyId())) {
			throw ApplicationFailure.newNonRetryableFailure(
					"No property with id '" + application.propertyId() + "' exists", "PropertyNotFound");
		}
	}

	/**
	 * Simulates the outside call: takes its time, and sometimes fails in a way worth
	 * retrying.
	 */
	private void work(String activity, String what) {
		ActivityContext context = ActivityContext.current();
		logger.info("{} (workflow {}, attempt {})", what, context.info().workflowId(), context.info().attempt());
		try {
			Thread.sleep(this.properties.getSimulatedWork());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
		Set<String> faulty = this.properties.getTransientFailureActivities();
		boolean hit = faulty.isEmpty() || faulty.contains(activity);
		if (!"compensate".equals(activity) && hit
				&& ThreadLocalRandom.current().nextDouble() < this.properties.getTransientFailureRate()) {
			throw new IllegalStateException(activity + ": the outside system did not answer in time (simulated)");
		}
	}

	private static BigDecimal monthlyPayment(BigDecimal principal, BigDecimal annualRatePercent) {
		double r = annualRatePercent.doubleValue() / 100 / 12;
		int n = 30 * 12;
		double payment = principal.doubleValue() * r / (1 - Math.pow(1 + r, -n));
		return BigDecimal.valueOf(payment).setScale(2, RoundingMode.HALF_UP);
	}

	private static String percent(BigDecimal ratio) {
		return ratio.movePointRight(2).setScale(1, RoundingMode.HALF_UP) + "%";
	}

	/**
	 * The employer's answer.
	 *
	 * @param employer the employer
	 * @param monthlyIncome the confirmed monthly income
	 */
	public record IncomeVerification(String employer, BigDecimal monthlyIncome) {
	}

	/**
	 * The credit bureau's answer.
	 *
	 * @param bureau the bureau
	 * @param score the credit score
	 */
	public record CreditReport(String bureau, int score) {
	}

	/**
	 * The appraiser's answer.
	 *
	 * @param appraiser the appraiser
	 * @param value the appraised value of the property
	 */
	public record Appraisal(String appraiser, BigDecimal value) {
	}

	/**
	 * The title company's answer.
	 *
	 * @param titleCompany the title company
	 * @param liens liens on the property; none for a clear title
	 */
	public record TitleSearch(String titleCompany, List<String> liens) {
	}

	/**
	 * Underwriting's decision.
	 *
	 * @param approved whether the loan is approved
	 * @param interestRate the annual interest rate in percent, when approved
	 * @param reason the grounds
	 */
	public record UnderwritingDecision(boolean approved, BigDecimal interestRate, String reason) {

		static UnderwritingDecision declined(String reason) {
			return new UnderwritingDecision(false, null, reason);
		}

	}

	/**
	 * The funded loan.
	 *
	 * @param loanNumber the loan number
	 */
	public record ClosedLoan(String loanNumber) {
	}

}
