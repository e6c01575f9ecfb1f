package dev.durable.sample.loan;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;

import dev.durable.workflow.Activity;
import dev.durable.workflow.ActivityContext;
import dev.durable.workflow.ActivityMethod;
import dev.durable.workflow.ApplicationFailure;

/**
 * The steps of a home loan, talking to (simulated) outside parties: the employer, the credit
 * bureau, the appraiser, the title company, underwriting and closing. A bean made by the
 * auto-configuration, since the class carries {@code @Activity}; called from
 * {@link HomeLoanWorkflow}, each call is durable: recorded, retried on failure, never repeated
 * once done.
 * <p>
 * A step that cannot succeed with the data given throws a non-retryable
 * {@link ApplicationFailure}; an outage throws any other exception and is retried.
 */
@Activity
public class LoanActivities {

	private static final Logger logger = LoggerFactory.getLogger(LoanActivities.class);

	private static final BigDecimal TWELVE = BigDecimal.valueOf(12);

	private final Duration simulatedWork;

	private final boolean flakyCreditBureau;

	public LoanActivities(@Value("${loan.simulated-work:PT0.5S}") Duration simulatedWork,
			@Value("${loan.flaky-credit-bureau:true}") boolean flakyCreditBureau) {
		this.simulatedWork = simulatedWork;
		this.flakyCreditBureau = flakyCreditBureau;
	}

	/** The employer confirms the income. */
	@ActivityMethod(startToCloseTimeout = "PT30S", maxAttempts = 5)
	public IncomeVerification verifyIncome(HomeLoanApplication application) {
		work("verifying the income of " + application.applicantName() + " with " + application.employerName());
		if (application.employerName() == null || application.employerName().isBlank()) {
			throw ApplicationFailure.newNonRetryableFailure("No employer given: the income cannot be verified",
					"IncomeNotVerifiable");
		}
		if (application.annualIncome() == null || application.annualIncome().signum() <= 0) {
			throw ApplicationFailure.newNonRetryableFailure(
					application.employerName() + " does not confirm an income of " + application.annualIncome(),
					"IncomeNotVerifiable");
		}
		BigDecimal monthly = application.annualIncome().divide(TWELVE, 2, RoundingMode.HALF_UP);
		return new IncomeVerification(application.employerName(), monthly);
	}

	/** The credit bureau reports the score. Its first answer is often a timeout (simulated). */
	@ActivityMethod(startToCloseTimeout = "PT30S", initialInterval = "PT1S", maxAttempts = 10)
	public CreditReport checkCredit(HomeLoanApplication application) {
		work("checking the credit of " + application.applicantName());
		if (application.ssn() == null || !application.ssn().matches("\\d{3}-\\d{2}-\\d{4}")) {
			throw ApplicationFailure.newNonRetryableFailure(
					"The credit bureau knows no SSN '" + application.ssn() + "' (expected 123-45-6789)", "InvalidSsn");
		}
		int attempt = ActivityContext.current().info().attempt();
		if (this.flakyCreditBureau && attempt == 1) {
			throw new IllegalStateException("The credit bureau did not answer in time (simulated outage)");
		}
		int score = 640 + Math.floorMod(application.ssn().hashCode(), 181);
		return new CreditReport("Simulated Credit Bureau", score);
	}

	/** An appraiser values the property. */
	@ActivityMethod(startToCloseTimeout = "PT60S")
	public Appraisal orderAppraisal(HomeLoanApplication application) {
		work("appraising " + application.propertyAddress());
		int basisPoints = 9500 + Math.floorMod(String.valueOf(application.propertyId()).hashCode(), 1500);
		BigDecimal value = application.purchasePrice()
			.multiply(BigDecimal.valueOf(basisPoints))
			.divide(BigDecimal.valueOf(10000), 0, RoundingMode.HALF_UP);
		return new Appraisal("Simulated Appraisals Inc.", value);
	}

	/** A title company searches the public records for liens on the property. */
	@ActivityMethod(startToCloseTimeout = "PT60S")
	public TitleSearch searchTitle(HomeLoanApplication application) {
		work("searching the title of " + application.propertyId());
		if (application.propertyId() == null || application.propertyId().isBlank()) {
			throw ApplicationFailure.newNonRetryableFailure("No property id: the title cannot be searched",
					"PropertyNotFound");
		}
		return new TitleSearch("Simulated Title Co.", List.of());
	}

	/** Underwriting decides, from what the other steps found. */
	@ActivityMethod(startToCloseTimeout = "PT30S")
	public UnderwritingDecision underwrite(HomeLoanApplication application, IncomeVerification income,
			CreditReport credit, Appraisal appraisal, TitleSearch title) {
		work("underwriting " + application.applicationId());
		if (application.loanAmount() == null || application.loanAmount().signum() <= 0) {
			throw ApplicationFailure.newNonRetryableFailure("The loan amount must be positive, not "
					+ application.loanAmount(), "InvalidLoanAmount");
		}
		BigDecimal loanToValue = application.loanAmount().divide(appraisal.value(), MathContext.DECIMAL64);
		BigDecimal payment = monthlyPayment(application.loanAmount(), new BigDecimal("6.5"));
		BigDecimal debtToIncome = payment.divide(income.monthlyIncome(), MathContext.DECIMAL64);
		if (credit.score() < 620) {
			return UnderwritingDecision.declined("credit score " + credit.score() + " is below 620");
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
	@ActivityMethod(startToCloseTimeout = "PT60S")
	public ClosedLoan closeLoan(HomeLoanApplication application, UnderwritingDecision decision) {
		work("closing " + application.applicationId() + " at " + decision.interestRate() + "%");
		String loanNumber = "HL-" + (100_000_000 + ThreadLocalRandom.current().nextInt(900_000_000));
		return new ClosedLoan(loanNumber);
	}

	private void work(String what) {
		ActivityContext context = ActivityContext.current();
		logger.info("{} (workflow {}, attempt {})", what, context.info().workflowId(), context.info().attempt());
		try {
			Thread.sleep(this.simulatedWork);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
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
	 * @param employer the employer
	 * @param monthlyIncome the confirmed monthly income
	 */
	public record IncomeVerification(String employer, BigDecimal monthlyIncome) {
	}

	/**
	 * The credit bureau's answer.
	 * @param bureau the bureau
	 * @param score the credit score
	 */
	public record CreditReport(String bureau, int score) {
	}

	/**
	 * The appraiser's answer.
	 * @param appraiser the appraiser
	 * @param value the appraised value of the property
	 */
	public record Appraisal(String appraiser, BigDecimal value) {
	}

	/**
	 * The title company's answer.
	 * @param titleCompany the title company
	 * @param liens liens on the property; none for a clear title
	 */
	public record TitleSearch(String titleCompany, List<String> liens) {
	}

	/**
	 * Underwriting's decision.
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
	 * @param loanNumber the loan number
	 */
	public record ClosedLoan(String loanNumber) {
	}

}
