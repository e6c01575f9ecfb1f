package dev.durable.sample.loan;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.durable.sample.loan.LoanController.LoanSummary;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.failure.CanceledFailure;
import dev.durable.workflow.test.TimeSkipper;
import dev.durable.workflow.test.spring.DurableWorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Every path of {@link HomeLoanWorkflow} on the application itself, with the test kit's
 * time-skipping clock (the three-day closing waiting period takes no time): each step's
 * failure and fix, repeated and duplicated fixes, cancellation with compensation, and the
 * search that finds loans waiting for a fix. No transient faults here (see
 * {@link HomeLoanRetryTest}).
 */
@SpringBootTest(properties = { "loan.simulated-work=0s", "loan.transient-failure-rate=0",
		"loan.closing-waiting-period=P3D", "durable.workflow.web.enabled=false" })
@DurableWorkflowTest
class HomeLoanWorkflowTest {

	@Autowired
	WorkflowClient client;

	@Autowired
	LoanController controller;

	@Autowired
	TimeSkipper time;

	@Test
	void closesAGoodApplicationAfterTheWaitingPeriod() {
		Instant start = this.time.currentTime();
		WorkflowHandle<LoanResult> handle = start(application());
		LoanResult result = handle.result();
		assertThat(result.status()).isEqualTo(LoanStatus.CLOSED);
		assertThat(result.loanNumber()).startsWith("HL-");
		assertThat(result.completedActivities()).containsExactly("verifyIncome", "checkCredit", "orderAppraisal",
				"searchTitle", "underwrite", "closeLoan");
		assertThat(result.fixHistory()).isEmpty();
		assertThat(this.time.currentTime()).isAfterOrEqualTo(start.plus(Duration.ofDays(3)));
		assertThat(summary(handle.workflowId()).loanStatus()).isEqualTo("CLOSED");
		assertThat(summary(handle.workflowId()).searchAttributes()).containsEntry("applicant", "Grace Hopper");
	}

	@ParameterizedTest(name = "{1} fails on a bad {0} and goes on after a fix")
	@CsvSource(delimiter = '|',
			value = { "employerName | verifyIncome | Nowhere Inc | US Navy",
					"ssn | checkCredit | 123456789 | 123-45-6789", "propertyId | orderAppraisal | P-404 | P-7",
					"propertyAddress | searchTitle | '' | 1 Main St", "loanAmount | underwrite | 5000000 | 300000",
					"applicantName | closeLoan | '' | Grace Hopper" })
	void pausesForAFixOfEachStepAndRetriesIt(String field, String activity, String bad, String good) {
		WorkflowHandle<LoanResult> handle = start(application().with(field, bad));
		LoanState paused = awaitPendingFix(handle, activity);
		assertThat(paused.failureMessage()).isNotBlank();
		assertThat(this.controller.search(activity, LoanStatus.PENDING_FIX, null, 50, null).loans())
			.extracting(LoanSummary::workflowId)
			.containsExactly(handle.workflowId());
		assertThat(this.controller.search("noSuchStep", LoanStatus.PENDING_FIX, null, 50, null).loans()).isEmpty();

		this.controller.fix(handle.workflowId(), new RetryUpdate(field, good, null));
		LoanResult result = handle.result();
		assertThat(result.status()).isEqualTo(LoanStatus.CLOSED);
		assertThat(result.completedActivities()).containsExactly("verifyIncome", "checkCredit", "orderAppraisal",
				"searchTitle", "underwrite", "closeLoan");
		assertThat(result.fixHistory()).singleElement().satisfies((fix) -> {
			assertThat(fix.activity()).isEqualTo(activity);
			assertThat(fix.field()).isEqualTo(field);
			assertThat(fix.oldValue()).isEqualTo(bad);
			assertThat(fix.newValue()).isEqualTo(good);
			assertThat(fix.error()).isEqualTo(paused.failureMessage());
		});
		LoanSummary summary = summary(handle.workflowId());
		assertThat(summary.loanStatus()).isEqualTo("CLOSED");
		assertThat(summary.failedActivity()).isEqualTo("");
	}

	@Test
	void takesRepeatedFixesAndIgnoresADuplicate() {
		WorkflowHandle<LoanResult> handle = start(application().with("ssn", "not-an-ssn"));
		awaitPendingFix(handle, "checkCredit");
		handle.signal(HomeLoanWorkflow::fix, new RetryUpdate("ssn", "000-12-3456", "fix-1"));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> handle.query(HomeLoanWorkflow::state).fixHistory().size() == 1
					&& handle.query(HomeLoanWorkflow::state).status() == LoanStatus.PENDING_FIX);
		LoanState stillPaused = awaitPendingFix(handle, "checkCredit");
		assertThat(stillPaused.failureMessage()).contains("000-12-3456");
		// the same fix again (a client retry, say): recorded once, and it does not wake
		// the step
		handle.signal(HomeLoanWorkflow::fix, new RetryUpdate("ssn", "000-12-3456", "fix-1"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.controller.fix(handle.workflowId(), new RetryUpdate("shoeSize", "42", null)));
		handle.signal(HomeLoanWorkflow::fix, new RetryUpdate("ssn", "123-45-6789", "fix-2"));
		LoanResult result = handle.result();
		assertThat(result.status()).isEqualTo(LoanStatus.CLOSED);
		assertThat(result.fixHistory()).extracting(FixEntry::id).containsExactly("fix-1", "fix-2");
		assertThat(result.fixHistory()).extracting(FixEntry::oldValue).containsExactly("not-an-ssn", "000-12-3456");
		assertThat(result.fixHistory().get(1).error()).contains("000-12-3456");
	}

	@Test
	void takesFixesOfSuccessiveSteps() {
		WorkflowHandle<LoanResult> handle = start(
				application().with("employerName", "Nowhere Inc").with("propertyId", "P-404"));
		awaitPendingFix(handle, "verifyIncome");
		this.controller.fix(handle.workflowId(), new RetryUpdate("employerName", "Acme Corp", null));
		awaitPendingFix(handle, "orderAppraisal");
		this.controller.fix(handle.workflowId(), new RetryUpdate("propertyId", "PARCEL-42", null));
		LoanResult result = handle.result();
		assertThat(result.status()).isEqualTo(LoanStatus.CLOSED);
		assertThat(result.fixHistory()).extracting(FixEntry::activity)
			.containsExactly("verifyIncome", "orderAppraisal");
	}

	@Test
	void compensatesTheCompletedStepsInReverseWhenCancelledWhilePaused() {
		WorkflowHandle<LoanResult> handle = start(application().with("propertyId", "P-404"));
		awaitPendingFix(handle, "orderAppraisal");
		handle.cancel("the applicant withdrew");
		assertThatExceptionOfType(WorkflowFailedException.class).isThrownBy(handle::result)
			.withRootCauseInstanceOf(CanceledFailure.class);
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.CANCELED);
		LoanState state = handle.query(HomeLoanWorkflow::state);
		assertThat(state.status()).isEqualTo(LoanStatus.FAILED);
		assertThat(state.completedActivities()).containsExactly("verifyIncome", "checkCredit");
		assertThat(state.compensatedActivities()).containsExactly("checkCredit", "verifyIncome");
		assertThat(summary(handle.workflowId()).loanStatus()).isEqualTo("FAILED");
	}

	@Test
	void compensatesEveryStepButTheClosingWhenCancelledDuringTheWaitingPeriod() {
		this.time.setAutoTimeSkipping(false);
		try {
			WorkflowHandle<LoanResult> handle = start(application());
			await().atMost(Duration.ofSeconds(30))
				.until(() -> handle.query(HomeLoanWorkflow::state).status() == LoanStatus.UNDERWRITTEN);
			this.time.sleep(Duration.ofDays(1));
			handle.cancel("rates went down elsewhere");
			assertThatExceptionOfType(WorkflowFailedException.class).isThrownBy(handle::result);
			LoanState state = handle.query(HomeLoanWorkflow::state);
			assertThat(state.compensatedActivities()).containsExactly("underwrite", "searchTitle", "orderAppraisal",
					"checkCredit", "verifyIncome");
			assertThat(state.completedActivities()).doesNotContain("closeLoan");
		}
		finally {
			this.time.setAutoTimeSkipping(true);
		}
	}

	@Test
	void deniesALoanTheIncomeCannotCarry() {
		LoanResult result = start(application().with("annualIncome", "30000")).result();
		assertThat(result.status()).isEqualTo(LoanStatus.DENIED);
		assertThat(result.reason()).contains("debt-to-income");
		assertThat(result.completedActivities()).doesNotContain("closeLoan");
	}

	private WorkflowHandle<LoanResult> start(LoanApplication application) {
		String workflowId = this.controller.start(application).getBody().workflowId();
		return this.client.handle(workflowId, LoanResult.class);
	}

	private LoanState awaitPendingFix(WorkflowHandle<LoanResult> handle, String activity) {
		// lets a pending timer (the closing waiting period) fire; returns once every run
		// is quiet
		this.time.sleep(Duration.ofDays(4));
		AtomicReference<LoanState> state = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			state.set(handle.query(HomeLoanWorkflow::state));
			return state.get().status() == LoanStatus.PENDING_FIX && activity.equals(state.get().failedActivity());
		});
		await().atMost(Duration.ofSeconds(30))
			.until(() -> "PENDING_FIX".equals(summary(handle.workflowId()).loanStatus()));
		assertThat(summary(handle.workflowId()).failedActivity()).isEqualTo(activity);
		return state.get();
	}

	private LoanSummary summary(String workflowId) {
		return this.controller.list(500, null)
			.loans()
			.stream()
			.filter((loan) -> loan.workflowId().equals(workflowId))
			.findFirst()
			.orElseThrow();
	}

	static LoanApplication application() {
		return new LoanApplication("loan-" + UUID.randomUUID(), "Grace Hopper", "123-45-6789", "US Navy",
				new BigDecimal("185000"), "1 Main St", "P-7", new BigDecimal("300000"), new BigDecimal("75000"), null);
	}

}
