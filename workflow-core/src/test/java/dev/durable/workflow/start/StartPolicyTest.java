package dev.durable.workflow.start;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowIdReusePolicy;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.InvalidWorkflowIdException;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowIdConflictPolicy;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.PayloadException;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Starting runs: id reuse and conflict policies, request ids, and bad input that must
 * write nothing.
 */
class StartPolicyTest {

	private final Engines engines = new Engines();

	private WorkflowEngine engine;

	private WorkflowClient client;

	@AfterEach
	void close() {
		this.engines.close();
	}

	/**
	 * Waits for a day, or fails on request; takes a "poke" signal that it leaves unread.
	 */
	@Workflow(value = "waiter", receives = "poke")
	public static class WaiterWorkflow {

		@WorkflowRun
		public String run(String mode) {
			if (mode.equals("fail")) {
				throw ApplicationFailure.newNonRetryableFailure("asked to fail", "Requested");
			}
			if (mode.equals("wait")) {
				Workflows.sleep(Duration.ofDays(1));
			}
			return "done " + mode;
		}

	}

	/** Takes no input. */
	@Workflow("no-input")
	public static class NoInputWorkflow {

		@WorkflowRun
		public int run() {
			return 42;
		}

	}

	/** Not serializable by Jackson: a getter that throws. */
	public static class Unserializable {

		public String getValue() {
			throw new IllegalStateException("cannot read me");
		}

	}

	/** Takes any payload. */
	@Workflow("any-input")
	public static class AnyInputWorkflow {

		@WorkflowRun
		public String run(Object input) {
			return String.valueOf(input);
		}

	}

	@BeforeEach
	void start() {
		this.engine = this.engines.start(this.engines.builder()
			.register(WaiterWorkflow.class, NoInputWorkflow.class, AnyInputWorkflow.class)
			.maxPayloadSize(1024));
		this.client = this.engine.client();
	}

	private int runs() {
		return this.engines.count("workflow_run");
	}

	private void assertNothingWritten(int runsBefore) {
		assertThat(runs()).isEqualTo(runsBefore);
		assertThat(this.engines.count("run_payload")).isEqualTo(runsBefore);
		assertThat(this.engines.count("visibility")).isEqualTo(runsBefore);
	}

	@Test
	void unknownTypeIsRejectedAndWritesNothing() {
		assertThatThrownBy(() -> this.client.start("no-such-type", "x", StartOptions.DEFAULT))
			.isInstanceOf(UnknownWorkflowTypeException.class)
			.hasMessageContaining("no-such-type")
			.hasMessageContaining("waiter");
		assertNothingWritten(0);
	}

	@Test
	void unserializableOversizedOrUnexpectedInputIsRejectedAndWritesNothing() {
		assertThatThrownBy(() -> this.client.start(AnyInputWorkflow::run, new Unserializable(), StartOptions.DEFAULT))
			.isInstanceOf(PayloadException.class)
			.hasMessageContaining("Cannot serialize the input of workflow any-input");
		assertThatThrownBy(() -> this.client.start(AnyInputWorkflow::run, "x".repeat(2000), StartOptions.DEFAULT))
			.isInstanceOf(PayloadException.class)
			.hasMessageContaining("over the limit of 1024 bytes")
			.satisfies((ex) -> assertThat(((PayloadException) ex).isTooLarge()).isTrue());
		assertThatThrownBy(() -> this.client.start("no-input", "unexpected", StartOptions.DEFAULT))
			.isInstanceOf(PayloadException.class)
			.hasMessageContaining("takes no input");
		assertNothingWritten(0);
	}

	@Test
	void invalidWorkflowIdsAreRejected() {
		for (String id : List.of("", "has space", "slash/inside", "x".repeat(256), "ünïcode")) {
			assertThatThrownBy(() -> this.client.start(WaiterWorkflow::run, "now", StartOptions.withId(id)))
				.isInstanceOf(InvalidWorkflowIdException.class);
		}
		assertThat(this.client.start(WaiterWorkflow::run, "now", StartOptions.withId("a.b_c:d@e-f")).result())
			.isEqualTo("done now");
		assertNothingWritten(1);
		assertThatThrownBy(() -> this.client.handle("unknown-id").describe())
			.isInstanceOf(WorkflowNotFoundException.class);
	}

	@Test
	void conflictPolicyFailRejectsASecondOpenRun() {
		WorkflowHandle<String> first = this.client.start(WaiterWorkflow::run, "wait", StartOptions.withId("dup"));
		assertThatThrownBy(() -> this.client.start(WaiterWorkflow::run, "wait", StartOptions.withId("dup")))
			.isInstanceOf(WorkflowAlreadyStartedException.class)
			.satisfies((ex) -> assertThat(((WorkflowAlreadyStartedException) ex).getExistingRunId())
				.isEqualTo(first.runId()));
		assertNothingWritten(1);
	}

	@Test
	void conflictPolicyUseExistingReturnsTheOpenRun() {
		WorkflowHandle<String> first = this.client.start(WaiterWorkflow::run, "wait", StartOptions.withId("dup"));
		WorkflowHandle<String> second = this.client.start(WaiterWorkflow::run, "wait",
				StartOptions.builder()
					.workflowId("dup")
					.idConflictPolicy(WorkflowIdConflictPolicy.USE_EXISTING)
					.build());
		assertThat(second.runId()).isEqualTo(first.runId());
		assertNothingWritten(1);
	}

	@Test
	void conflictPolicyTerminateExistingReplacesTheOpenRun() {
		WorkflowHandle<String> first = this.client.start(WaiterWorkflow::run, "wait", StartOptions.withId("dup"));
		WorkflowHandle<String> second = this.client.start(WaiterWorkflow::run, "now",
				StartOptions.builder()
					.workflowId("dup")
					.idConflictPolicy(WorkflowIdConflictPolicy.TERMINATE_EXISTING)
					.build());
		assertThat(second.runId()).isNotEqualTo(first.runId());
		assertThat(second.result(Duration.ofSeconds(10))).isEqualTo("done now");
		// the first handle follows the workflow id to the new run: the replaced run is
		// read by its id
		assertThat(first.describe().runId()).isEqualTo(second.runId());
		assertThat(this.client.handle("dup", first.runId()).describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
		assertThat(this.client.handle("dup").runId()).isEqualTo(second.runId());
	}

	@Test
	void reusePolicies() {
		this.client.start(WaiterWorkflow::run, "now", StartOptions.withId("done-once")).result(Duration.ofSeconds(10));
		// ALLOW_DUPLICATE (default) starts again
		assertThat(this.client.start(WaiterWorkflow::run, "again", StartOptions.withId("done-once"))
			.result(Duration.ofSeconds(10))).isEqualTo("done again");
		// REJECT_DUPLICATE refuses any earlier run
		int before = runs();
		assertThatThrownBy(() -> this.client.start(WaiterWorkflow::run, "now",
				StartOptions.builder()
					.workflowId("done-once")
					.idReusePolicy(WorkflowIdReusePolicy.REJECT_DUPLICATE)
					.build()))
			.isInstanceOf(WorkflowAlreadyStartedException.class)
			.hasMessageContaining("REJECT_DUPLICATE");
		// ALLOW_DUPLICATE_FAILED_ONLY refuses after a success, allows after a failure
		StartOptions failedOnly = StartOptions.builder()
			.workflowId("done-once")
			.idReusePolicy(WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY)
			.build();
		assertThatThrownBy(() -> this.client.start(WaiterWorkflow::run, "now", failedOnly))
			.isInstanceOf(WorkflowAlreadyStartedException.class);
		assertNothingWritten(before);
		WorkflowHandle<String> failing = this.client.start(WaiterWorkflow::run, "fail", StartOptions.withId("fails"));
		assertThatThrownBy(() -> failing.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.cause()
			.isInstanceOf(ApplicationFailure.class)
			.hasMessage("asked to fail");
		assertThat(this.client.start(WaiterWorkflow::run, "retry", failedOnly.toBuilder().workflowId("fails").build())
			.result(Duration.ofSeconds(10))).isEqualTo("done retry");
		// TERMINATE_IF_RUNNING replaces an open run
		WorkflowHandle<String> open = this.client.start(WaiterWorkflow::run, "wait", StartOptions.withId("open"));
		WorkflowHandle<String> replacement = this.client.start(WaiterWorkflow::run, "now",
				StartOptions.builder()
					.workflowId("open")
					.idReusePolicy(WorkflowIdReusePolicy.TERMINATE_IF_RUNNING)
					.build());
		assertThat(replacement.result(Duration.ofSeconds(10))).isEqualTo("done now");
		assertThat(this.client.handle("open", open.runId()).describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
	}

	@Test
	void retriedStartWithTheSameRequestIdReturnsTheSameRun() {
		StartOptions options = StartOptions.builder().workflowId("req").requestId("request-1").build();
		WorkflowHandle<String> first = this.client.start(WaiterWorkflow::run, "wait", options);
		WorkflowHandle<String> again = this.client.start(WaiterWorkflow::run, "wait", options);
		assertThat(again.runId()).isEqualTo(first.runId());
		assertNothingWritten(1);
	}

	@Test
	void untypedStartAndHandleConvertTheResult() {
		WorkflowHandle<Object> handle = this.client.start("any-input", Map.of("k", 1), StartOptions.withId("untyped"));
		assertThat(handle.result(String.class)).isEqualTo("{k=1}");
		assertThat(this.client.handle("untyped").result(String.class)).isEqualTo("{k=1}");
		assertThat(this.client.handle("untyped", handle.runId()).describe().workflowType()).isEqualTo("any-input");
		assertThat(this.client.start(NoInputWorkflow::run, StartOptions.DEFAULT).result()).isEqualTo(42);
	}

	@Test
	void delayedStartRunsWhenTheDelayHasPassed() {
		WorkflowHandle<String> handle = this.client.start(WaiterWorkflow::run, "later",
				StartOptions.builder().workflowId("delayed").startDelay(Duration.ofHours(2)).build());
		assertThat(handle.describe().workflowTasks()).isZero();
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.describe().workflowTasks()).isZero();
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("done later");
		await().until(() -> this.engines.count("timer") == 0);
	}

	@Test
	void toBuilderKeepsEveryOption() {
		StartOptions full = new StartOptions("id-1", "req-1", WorkflowIdReusePolicy.REJECT_DUPLICATE,
				WorkflowIdConflictPolicy.USE_EXISTING, Duration.ofMinutes(1), "queue-1", Duration.ofHours(2),
				Duration.ofHours(1), RetryPolicy.DEFAULT, "0 2 * * *", Duration.ofSeconds(3), Map.of("note", "n"),
				Map.of("customer", "c"));
		// the canonical constructor names every component: a new one breaks this test
		// until it is set
		assertThat(full.toBuilder().build()).isEqualTo(full);
	}

	@Test
	void signalWithStartSkipsTheStartDelay() {
		// the signal is news the workflow should see now: the delay does not hold it back
		WorkflowHandle<String> handle = this.client.signalWithStart(WaiterWorkflow::run, "now",
				StartOptions.builder().workflowId("delayed-sws").startDelay(Duration.ofHours(2)).build(), "poke", 1);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("done now");
		assertThat(handle.history()).extracting("type").containsSubsequence("SIGNAL_RECEIVED", "WORKFLOW_COMPLETED");
	}

}
