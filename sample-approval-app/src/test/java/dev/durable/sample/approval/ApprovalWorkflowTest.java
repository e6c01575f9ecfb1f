package dev.durable.sample.approval;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import org.assertj.core.data.TemporalUnitOffset;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.StreamEntry;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.WorkflowUpdateRejectedException;
import dev.durable.workflow.test.TestWorkflowEnvironment;
import dev.durable.workflow.test.WorkflowTestExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every path of {@link ApprovalWorkflow}, on the test kit's time-skipping clock (48 hours
 * take milliseconds), with {@link RecordingApprovalActivities} counting what was sent.
 */
class ApprovalWorkflowTest {

	/**
	 * The activities' real time counts on the test clock (a few ms on top of the timers).
	 */
	private static final TemporalUnitOffset ACTIVITY_TIME = within(10, ChronoUnit.SECONDS);

	@RegisterExtension
	static final WorkflowTestExtension workflows = WorkflowTestExtension.builder()
		.registerWorkflows(ApprovalWorkflow.class)
		.build();

	private static final String ALICE = "alice@example.com";

	private static final String BOB = "bob@example.com";

	private static final ApprovalPolicy POLICY = new ApprovalPolicy(ALICE, BOB, Duration.ofHours(48),
			Duration.ofHours(48), Duration.ofHours(12), Duration.ofDays(7), 3, 0);

	private final RecordingApprovalActivities activities = new RecordingApprovalActivities();

	private TestWorkflowEnvironment env;

	private Instant start;

	@BeforeEach
	void setUp(TestWorkflowEnvironment env) {
		this.env = env;
		env.registerActivities(this.activities);
		this.start = env.currentTime();
	}

	@Test
	void approvedWithinTheSla() {
		WorkflowHandle<ApprovalState> handle = submit(POLICY);
		this.env.sleep(Duration.ofHours(10));
		assertThat(handle.query(ApprovalWorkflow::state).status()).isEqualTo(DocumentStatus.AWAITING_PRIMARY);

		DecisionReceipt receipt = handle.update(ApprovalWorkflow::decide, ApprovalDecision.approve(ALICE, "fine"));
		assertThat(receipt.approved()).isTrue();
		assertThat(receipt.stage()).isEqualTo(ApprovalStage.PRIMARY);
		assertThat(receipt.at()).isCloseTo(this.start.plus(Duration.ofHours(10)), ACTIVITY_TIME);

		ApprovalState result = handle.result();
		assertThat(result.status()).isEqualTo(DocumentStatus.APPROVED);
		assertThat(result.decision().approver()).isEqualTo(ALICE);
		assertThat(events(result)).containsExactly("SUBMITTED", "STORED", "AWAITING_PRIMARY", "APPROVED");
		assertThat(auditStream(handle, 0)).as("the audit stream holds the trail, line n at offset n")
			.isEqualTo(result.auditTrail());
		assertThat(auditStream(handle, 2)).isEqualTo(result.auditTrail().subList(2, 4));
		assertThat(result.documentStored()).isTrue();
		assertThat(this.activities.stored).hasSize(1);
		assertThat(this.activities.notices).extracting(ApprovalActivities.ApprovalNotice::approver)
			.containsExactly(ALICE);
		assertThat(this.activities.reminders).isEmpty();
		assertThat(this.activities.authorNotices).containsExactly(DocumentStatus.APPROVED);
	}

	@Test
	void remindsOnTheIntervalAndEscalatesAfter48Hours() {
		WorkflowHandle<ApprovalState> handle = submit(POLICY);
		this.env.sleep(Duration.ofHours(49));

		ApprovalState escalated = handle.query(ApprovalWorkflow::state);
		assertThat(escalated.status()).isEqualTo(DocumentStatus.ESCALATED);
		assertThat(escalated.currentApprover()).isEqualTo(BOB);
		assertThat(escalated.deadline()).isCloseTo(this.start.plus(Duration.ofHours(96)), ACTIVITY_TIME);
		assertThat(events(escalated)).contains("SLA_PASSED", "ESCALATED");
		assertThat(this.activities.remindersTo(ALICE)).isEqualTo(3); // at 12, 24 and 36
																		// hours
		assertThat(this.activities.notices).extracting(ApprovalActivities.ApprovalNotice::stage)
			.containsExactly(ApprovalStage.PRIMARY, ApprovalStage.BACKUP);

		assertThatExceptionOfType(WorkflowUpdateRejectedException.class)
			.isThrownBy(() -> handle.update(ApprovalWorkflow::decide, ApprovalDecision.approve(ALICE, "late")))
			.withMessageContaining("not the approver");
		handle.update(ApprovalWorkflow::decide, ApprovalDecision.approve(BOB, "on behalf of alice"));

		ApprovalState result = handle.result();
		assertThat(result.status()).isEqualTo(DocumentStatus.APPROVED);
		assertThat(result.decision().approver()).isEqualTo(BOB);
		assertThat(result.stage()).isEqualTo(ApprovalStage.BACKUP);
		assertThat(this.activities.remindersTo(BOB)).isZero(); // decided 1 hour into the
																// backup SLA
	}

	@Test
	void autoRejectsWhenTheBackupSlaPassesToo() {
		WorkflowHandle<ApprovalState> handle = submit(POLICY);

		ApprovalState result = handle.result();
		assertThat(result.status()).isEqualTo(DocumentStatus.AUTO_REJECTED);
		assertThat(events(result)).containsSubsequence("AWAITING_PRIMARY", "SLA_PASSED", "ESCALATED", "SLA_PASSED",
				"AUTO_REJECTED");
		assertThat(result.auditTrail().getLast().at()).isCloseTo(this.start.plus(Duration.ofHours(96)), ACTIVITY_TIME);
		assertThat(this.activities.remindersTo(ALICE)).isEqualTo(3);
		assertThat(this.activities.remindersTo(BOB)).isEqualTo(3);
		assertThat(result.remindersSent()).isEqualTo(6);
		assertThat(this.activities.authorNotices).containsExactly(DocumentStatus.AUTO_REJECTED);
	}

	@Test
	void aDecisionStopsTheRemindersAtOnce() {
		WorkflowHandle<ApprovalState> handle = submit(POLICY);
		this.env.sleep(Duration.ofHours(30));
		assertThat(this.activities.remindersTo(ALICE)).isEqualTo(2);

		handle.update(ApprovalWorkflow::decide, ApprovalDecision.reject(ALICE, "needs a summary", true));
		// the run now waits up to 7 days for a revised version: no reminder in all that
		// time
		this.env.sleep(Duration.ofDays(5));
		assertThat(handle.query(ApprovalWorkflow::state).status()).isEqualTo(DocumentStatus.AWAITING_RESUBMISSION);
		assertThat(this.activities.reminders).hasSize(2);

		ApprovalState result = handle.result();
		assertThat(result.status()).isEqualTo(DocumentStatus.REJECTED);
		assertThat(events(result)).endsWith("REJECTED", "RESUBMISSION_WINDOW_CLOSED");
		assertThat(result.auditTrail().getLast().at())
			.isCloseTo(this.start.plus(Duration.ofHours(30)).plus(Duration.ofDays(7)), ACTIVITY_TIME);
		assertThat(this.activities.reminders).hasSize(2);
		assertThat(this.activities.authorNotices).containsExactly(DocumentStatus.AWAITING_RESUBMISSION,
				DocumentStatus.REJECTED);
	}

	@Test
	void eachResubmissionGoesRoundAgain() {
		WorkflowHandle<ApprovalState> handle = submit(POLICY);
		this.env.sleep(Duration.ofHours(1));
		handle.update(ApprovalWorkflow::decide, ApprovalDecision.reject(ALICE, "too long", true));
		this.env.sleep(Duration.ofDays(1));
		assertThat(handle.update(ApprovalWorkflow::resubmit, revised("v2"))).isEqualTo(1);
		this.env.timeSkipper().awaitQuiet(); // the run stores version 2 and asks alice
												// again

		assertThat(handle.query(ApprovalWorkflow::state).status()).isEqualTo(DocumentStatus.AWAITING_PRIMARY);
		assertThatExceptionOfType(WorkflowUpdateRejectedException.class)
			.isThrownBy(() -> handle.update(ApprovalWorkflow::resubmit, revised("v2 again")))
			.withMessageContaining("awaits no resubmission");
		handle.update(ApprovalWorkflow::decide, ApprovalDecision.reject(ALICE, "still too long", true));
		this.env.sleep(Duration.ofHours(1));
		assertThat(handle.update(ApprovalWorkflow::resubmit, revised("v3"))).isEqualTo(2);
		this.env.timeSkipper().awaitQuiet();
		handle.update(ApprovalWorkflow::decide, ApprovalDecision.approve(ALICE, "good"));

		ApprovalState result = handle.result();
		assertThat(result.status()).isEqualTo(DocumentStatus.APPROVED);
		assertThat(result.resubmissionCount()).isEqualTo(2);
		assertThat(result.submission().content()).isEqualTo("v3");
		assertThat(this.activities.stored).containsExactly(id(handle) + "/v1:v1", id(handle) + "/v2:v2",
				id(handle) + "/v3:v3");
		assertThat(events(result)).containsSubsequence("STORED", "REJECTED", "RESUBMITTED", "STORED", "REJECTED",
				"RESUBMITTED", "STORED", "APPROVED");
		assertThat(result.continuedAsNew()).isZero();
	}

	@Test
	void noResubmissionPastTheLimit() {
		ApprovalPolicy once = new ApprovalPolicy(ALICE, BOB, Duration.ofHours(48), Duration.ofHours(48),
				Duration.ofHours(12), Duration.ofDays(7), 1, 0);
		WorkflowHandle<ApprovalState> handle = submit(once);
		this.env.sleep(Duration.ofHours(1));
		handle.update(ApprovalWorkflow::decide, ApprovalDecision.reject(ALICE, "no", true));
		handle.update(ApprovalWorkflow::resubmit, revised("v2"));
		this.env.timeSkipper().awaitQuiet();
		handle.update(ApprovalWorkflow::decide, ApprovalDecision.reject(ALICE, "still no", true));

		ApprovalState result = handle.result();
		assertThat(result.status()).isEqualTo(DocumentStatus.REJECTED);
		assertThat(result.resubmissionCount()).isEqualTo(1);
	}

	@Test
	void continuesAsNewWithTheAuditTrailIntact() {
		ApprovalPolicy everyResubmission = new ApprovalPolicy(ALICE, BOB, Duration.ofHours(48), Duration.ofHours(48),
				Duration.ofHours(12), Duration.ofDays(7), 3, 1);
		WorkflowHandle<ApprovalState> handle = submit(everyResubmission);
		UUID firstRun = handle.runId();
		this.env.sleep(Duration.ofHours(13)); // one reminder
		handle.update(ApprovalWorkflow::decide, ApprovalDecision.reject(ALICE, "typos", true));
		handle.update(ApprovalWorkflow::resubmit, revised("v2"));
		this.env.timeSkipper().awaitQuiet();

		WorkflowClient client = this.env.client();
		assertThat(client.handle(id(handle), firstRun).describe().status()).isEqualTo(WorkflowStatus.CONTINUED_AS_NEW);
		// the handle of the start and a handle by workflow id follow the latest run; one
		// pinned to the
		// first run still reads that run's state
		WorkflowHandle<ApprovalState> latest = client.handle(id(handle), ApprovalState.class);
		assertThat(latest.describe().runId()).isNotEqualTo(firstRun).isEqualTo(handle.describe().runId());
		assertThat(handle.runId()).isEqualTo(firstRun);
		assertThat(client.handle(id(handle), firstRun).query(ApprovalWorkflow::state).status())
			.isEqualTo(DocumentStatus.SUBMITTED);
		assertThat(handle.query(ApprovalWorkflow::state).continuedAsNew()).isEqualTo(1);
		ApprovalState continued = latest.query(ApprovalWorkflow::state);
		assertThat(continued.continuedAsNew()).isEqualTo(1);
		assertThat(continued.status()).isEqualTo(DocumentStatus.AWAITING_PRIMARY);
		assertThat(events(continued)).containsExactly("SUBMITTED", "STORED", "AWAITING_PRIMARY", "REMINDED", "REJECTED",
				"RESUBMITTED", "CONTINUED_AS_NEW", "STORED", "AWAITING_PRIMARY");

		latest.update(ApprovalWorkflow::decide, ApprovalDecision.approve(ALICE, "good now"));
		ApprovalState result = handle.result(); // follows the chain to the last run
		assertThat(result.status()).isEqualTo(DocumentStatus.APPROVED);
		assertThat(result.resubmissionCount()).isEqualTo(1);
		assertThat(result.remindersSent()).isEqualTo(1);
		assertThat(result.auditTrail()).startsWith(continued.auditTrail().toArray(AuditEntry[]::new));
		assertThat(result.auditTrail().getFirst().at()).isEqualTo(this.start);
		assertThat(auditStream(latest, 0)).as("the latest run streams the trail it carried, then its own lines")
			.isEqualTo(result.auditTrail());
		assertThat(auditStream(client.handle(id(handle), firstRun), 0)).isEqualTo(continued.auditTrail().subList(0, 7));
	}

	private static List<AuditEntry> auditStream(WorkflowHandle<?> handle, long from) {
		try (Stream<StreamEntry<AuditEntry>> lines = handle.readStream(ApprovalWorkflow.AUDIT_STREAM, from,
				AuditEntry.class)) {
			return lines.map(StreamEntry::value).toList();
		}
	}

	@Test
	void aDecisionMustComeFromTheCurrentApproverWhileOneIsAwaited() {
		WorkflowHandle<ApprovalState> handle = submit(POLICY);
		this.env.sleep(Duration.ofMinutes(5));
		assertThatExceptionOfType(WorkflowUpdateRejectedException.class)
			.isThrownBy(() -> handle.update(ApprovalWorkflow::decide, ApprovalDecision.approve(BOB, "me?")))
			.withMessageContaining("not the approver");
		assertThatExceptionOfType(WorkflowUpdateRejectedException.class)
			.isThrownBy(() -> handle.update(ApprovalWorkflow::decide, new ApprovalDecision(null, true, null, false)))
			.withMessageContaining("needs an approver");
		assertThatExceptionOfType(WorkflowUpdateRejectedException.class)
			.isThrownBy(() -> handle.update(ApprovalWorkflow::resubmit, revised("early")))
			.withMessageContaining("awaits no resubmission");

		// the signal is fire and forget: a wrong approver is only written down
		handle.signal(ApprovalWorkflow::decision, ApprovalDecision.approve(BOB, "me?"));
		handle.signal(ApprovalWorkflow::decision, ApprovalDecision.reject(ALICE, "no", false));
		ApprovalState result = handle.result();
		assertThat(result.status()).isEqualTo(DocumentStatus.REJECTED);
		assertThat(result.decision().approver()).isEqualTo(ALICE);
		assertThat(events(result)).endsWith("DECISION_IGNORED", "REJECTED");
	}

	private WorkflowHandle<ApprovalState> submit(ApprovalPolicy policy) {
		DocumentSubmission submission = new DocumentSubmission("doc-" + UUID.randomUUID(), "Travel policy",
				"carol@example.com", "v1");
		return this.env.client()
			.start(ApprovalWorkflow::run, ApprovalState.submitted(submission, policy),
					StartOptions.withId(submission.documentId()));
	}

	private static DocumentSubmission revised(String content) {
		return new DocumentSubmission(null, "Travel policy", "carol@example.com", content);
	}

	private static String id(WorkflowHandle<?> handle) {
		return handle.workflowId();
	}

	private static List<String> events(ApprovalState state) {
		return state.auditTrail().stream().map(AuditEntry::event).toList();
	}

}
