package dev.durable.workflow.start;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.run.TaskFailureTest.BuggyWorkflow;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An eager first task that fails, in workflow code or at its commit: what is kept,
 * retried and reported.
 */
class EagerStartFailureTest extends EagerStartFixture {

	// ---- a first task that fails in workflow code
	// -----------------------------------------------

	@Test
	void aFirstTaskThatFailsInWorkflowCodeLeavesTheRunStartedAndRetriesItWithBackoff() {
		BuggyWorkflow.fixed = false;
		CommitHooks hooks = new CommitHooks();
		WorkflowEngine engine = worker(hooks);
		Instant startedAt = this.engines.clock.instant();
		WorkflowHandle<String> handle = engine.client().start(BuggyWorkflow::run, StartOptions.withId("eager-buggy"));

		// the start committed although its first task failed: the run is stored, with
		// nothing of the task
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		assertThat(this.engines.count("run_payload")).isEqualTo(1);
		assertThat(this.engines.count("visibility")).isEqualTo(1);
		assertThat(this.engines.count("history")).isZero();
		assertThat(runRow(handle.runId()).get("status")).isEqualTo("RUNNING");
		assertThat(hooks.threads).as("the failed task committed nothing").isEmpty();

		// it fails again as an ordinary task, which records the failure and its backoff
		await().until(() -> handle.describe().taskFailure() != null);
		WorkflowDescription stuck = handle.describe();
		assertThat(stuck.status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(stuck.taskFailure()).contains("NullPointerException");
		assertThat(stuck.taskAttempts()).isEqualTo(1);
		assertThat(stuck.workflowTasks()).isZero();
		// the engine clock did not move: the next attempt waits one second from now
		assertThat(((java.sql.Timestamp) runRow(handle.runId()).get("next_wake_at")).toInstant())
			.isEqualTo(startedAt.plusSeconds(1));

		BuggyWorkflow.fixed = true;
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("fixed");
		assertThat(handle.describe().taskFailure()).isNull();
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- a crash at the first task's commit
	// -----------------------------------------------------

	@Test
	void aCrashAtTheFirstTasksCommitFailsTheStartAndLeavesNoRun() {
		CommitHooks hooks = new CommitHooks();
		hooks.failCommitNumber = 1;
		WorkflowEngine engine = worker(hooks);
		assertThatThrownBy(() -> engine.client().start(Sleeper::run, "x", StartOptions.withId("crashed")))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("connection lost during commit 1");
		assertThat(hooks.threads).containsExactly(Thread.currentThread());

		// the start and its first task are one transaction: nothing of either is stored
		assertNoRows("workflow_run", "run_payload", "visibility", "history", "timer", "activity", "inbox");
		assertThat(engine.cachedRuns()).isZero();
		assertThatThrownBy(() -> engine.client().handle("crashed").describe())
			.isInstanceOf(WorkflowNotFoundException.class);

		// the id is free, and the engine works on
		WorkflowHandle<String> handle = engine.client().start(Sleeper::run, "y", StartOptions.withId("crashed"));
		assertThat(handle.describe().workflowTasks()).isEqualTo(1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("step y");
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- listeners around an eager first task
	// ----------------------------------------------------

	@Test
	void anEagerFirstTaskThatFailsIsReportedFailedToListeners() {
		BuggyWorkflow.fixed = false;
		TaskCounter counter = new TaskCounter();
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(BuggyWorkflow.class).listener(counter));
		engine.client().start(BuggyWorkflow::run, StartOptions.withId("listened-buggy"));
		// the eager attempt ran (and failed) inside start
		assertThat(counter.started).hasValueGreaterThanOrEqualTo(1);
		assertThat(counter.ended).isNotEmpty();
		assertThat(counter.ended.get(0)).as("how the eager first task ended").isEqualTo("failed");
	}

	@Test
	void aStartWhoseFirstTaskDidNotCommitEndsTheTaskAndItsWorkflowThreads() {
		Unwinding.LEFT.set(0);
		TaskCounter counter = new TaskCounter();
		CommitHooks hooks = new CommitHooks();
		hooks.failCommitNumber = 1;
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(Unwinding.class).hooks(hooks).listener(counter));
		assertThatThrownBy(() -> engine.client().start(Unwinding::run, StartOptions.withId("unended")))
			.isInstanceOf(IllegalStateException.class);
		assertThat(counter.started).hasValue(1);
		assertThat(counter.ended).as("every task begun is ended").containsExactly("failed");
		assertThat(Unwinding.LEFT).as("the workflow thread of the task that did not commit was unwound").hasValue(1);
		assertNoRows("workflow_run", "history", "timer");
	}

}
