package dev.durable.sample.loan;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.test.TimeSkipper;
import dev.durable.workflow.test.spring.DurableWorkflowTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Transient faults: retried by the policy of {@code loan.retry} (its long back-off
 * skipped by the test clock); once the policy gives up, a step that pauses until an
 * operator unpauses it, or, with {@code pause-when-exhausted} off, a loan that fails for
 * good with its completed steps compensated in reverse order. The fault rate is changed
 * per test on the {@link LoanProperties} bean, which the activities read at every
 * attempt.
 */
@SpringBootTest(properties = { "loan.simulated-work=0s", "loan.transient-failure-rate=0",
		"loan.retry.initial-interval=PT1M", "loan.retry.maximum-attempts=3", "durable.workflow.web.enabled=false" })
@DurableWorkflowTest
class HomeLoanRetryTest {

	@Autowired
	WorkflowClient client;

	@Autowired
	LoanController controller;

	@Autowired
	LoanProperties properties;

	@Autowired
	TimeSkipper time;

	@AfterEach
	void noMoreFaults() {
		this.properties.setTransientFailureRate(0);
		this.properties.setTransientFailureActivities(Set.of());
		this.properties.getRetry().setMaximumAttempts(3);
		this.properties.getRetry().setPauseWhenExhausted(true);
	}

	@Test
	void retriesTransientFaultsByPolicy() {
		this.properties.setTransientFailureRate(0.5);
		this.properties.getRetry().setMaximumAttempts(40);
		LoanResult result = start().result();
		assertThat(result.status()).isEqualTo(LoanStatus.CLOSED);
		assertThat(result.fixHistory()).isEmpty();
	}

	@Test
	void aStepWhoseRetriesAreSpentPausesUntilAnOperatorUnpausesIt() {
		this.properties.setTransientFailureRate(1.0);
		this.properties.setTransientFailureActivities(Set.of("underwrite"));
		WorkflowHandle<LoanResult> handle = start();
		// the three attempts fail (their minute-long back-offs skipped), then the step
		// waits
		this.time.sleep(Duration.ofMinutes(5));
		await().atMost(Duration.ofSeconds(30))
			.until(() -> handle.waitingOn().stream().anyMatch((wait) -> wait.kind() == RunWait.Kind.ACTIVITY_PAUSED));
		PendingActivity underwrite = handle.describe().pendingActivities().get(0);
		assertThat(underwrite.activityType()).isEqualTo("underwrite");
		assertThat(underwrite.pauseReason()).startsWith("activity paused after 3 attempts");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(handle.query(HomeLoanWorkflow::state).compensatedActivities()).isEmpty();

		// the underwriting service is back: the operator unpauses the step
		this.properties.setTransientFailureRate(0);
		handle.unpauseActivity(underwrite.activityId());
		LoanResult result = handle.result();
		assertThat(result.status()).isEqualTo(LoanStatus.CLOSED);
		assertThat(handle.history()).extracting(HistoryEvent::type).contains("ACTIVITY_PAUSED", "ACTIVITY_UNPAUSED");
	}

	@Test
	void failsForGoodOnceTheRetriesAreSpentWhenNotPausingAndCompensatesInReverse() {
		this.properties.getRetry().setPauseWhenExhausted(false);
		this.properties.setTransientFailureRate(1.0);
		this.properties.setTransientFailureActivities(Set.of("underwrite"));
		Instant start = this.time.currentTime();
		WorkflowHandle<LoanResult> handle = start();
		assertThatExceptionOfType(WorkflowFailedException.class).isThrownBy(handle::result)
			.havingCause()
			.isInstanceOfSatisfying(ActivityFailure.class, (failure) -> {
				assertThat(failure.getActivityType()).isEqualTo("underwrite");
				assertThat(failure.getAttempt()).isEqualTo(3);
			});
		// two back-offs of a minute each (the second capped by
		// loan.retry.maximum-interval), skipped
		assertThat(this.time.currentTime()).isAfterOrEqualTo(start.plus(Duration.ofMinutes(2)));
		LoanState state = handle.query(HomeLoanWorkflow::state);
		assertThat(state.status()).isEqualTo(LoanStatus.FAILED);
		assertThat(state.failedActivity()).isEqualTo("underwrite");
		assertThat(state.failureMessage()).contains("did not answer in time");
		assertThat(state.compensatedActivities()).containsExactly("searchTitle", "orderAppraisal", "checkCredit",
				"verifyIncome");
		assertThat(this.controller.search("underwrite", LoanStatus.FAILED, null, 50, null).loans())
			.extracting(LoanController.LoanSummary::workflowId)
			.containsExactly(handle.workflowId());
	}

	private WorkflowHandle<LoanResult> start() {
		String workflowId = this.controller.start(HomeLoanWorkflowTest.application()).getBody().workflowId();
		return this.client.handle(workflowId, LoanResult.class);
	}

}
