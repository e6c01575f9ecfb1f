package dev.durable.workflow.start;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;
import dev.durable.workflow.support.StatementRecorder;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A task commit that touches only its own run is one SQL statement in autocommit; its
 * compare-and-set on the run row ({@code owner_node, epoch, history_seq, status}) is all
 * that fences it. A row changed behind the owner's back between its read and its commit
 * makes that statement write nothing, and the owner evicts the run.
 *
 * <p>
 * (FencingTest covers the same path with a real takeover, where owner, epoch and history
 * sequence all differ; here one column changes at a time.)
 */
class SingleStatementCommitTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Steps {

		static final AtomicInteger CALLS = new AtomicInteger();

		private final String node;

		public Steps(String node) {
			this.node = node;
		}

		public String step(String name) {
			CALLS.incrementAndGet();
			return name + "@" + this.node;
		}

	}

	/** Waits for a signal, then one step. */
	@Workflow(value = "single-statement", receives = { "go" })
	public static class SignalThenStep {

		private final Steps steps;

		public SignalThenStep(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run() {
			String name = Workflows.receive("go", String.class);
			return this.steps.step(name);
		}

	}

	/**
	 * A node that polls once an hour: after it evicts a run nothing of its own brings the
	 * run back, so what its refused commit left behind can be looked at.
	 */
	private WorkflowEngine node(String name, StallingHooks hooks) {
		StatementRecorder recorder = new StatementRecorder(TestDatabase.dataSource());
		WorkflowEngine node = this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			// the statements counted are the engine's own: no once-per-connection session
			// settings among them
			.idleInTransactionTimeout(Duration.ZERO)
			.register(SignalThenStep.class)
			.registerActivities(new Steps(name))
			.hooks(hooks)
			.pollInterval(Duration.ofHours(1)));
		// its first poll (at start) is done before the test goes on: a late one would
		// find the
		// evicted run and take it up again before the test looked at what the refusal
		// left
		await().until(() -> recorder.all()
			.stream()
			.anyMatch((statement) -> statement.sql().startsWith("SELECT run_id, epoch, ((task_attempt = 0")));
		return node;
	}

	private String table(String name) {
		return this.engines.schema + "." + name;
	}

	private List<Map<String, Object>> history() {
		return this.engines.jdbc()
			.queryForList("SELECT run_id, seq, convert_from(events, 'UTF8') AS events FROM " + table("history")
					+ " ORDER BY seq");
	}

	private Map<String, Object> run() {
		return this.engines.jdbc()
			.queryForMap("SELECT history_seq, pending_input, has_activities FROM " + table("workflow_run"));
	}

	@Test
	void aCommitRefusedForAnEpochBumpedBehindTheOwnersBackWritesNothing() throws Exception {
		refusedAfter("UPDATE " + table("workflow_run") + " SET epoch = epoch + 1", null);
	}

	@Test
	void aCommitRefusedForAnOwnerChangedBehindTheOwnersBackWritesNothing() throws Exception {
		// a node id no node has: the run looks orphaned, so the next node to poll claims
		// it
		refusedAfter("UPDATE " + table("workflow_run") + " SET owner_node = '" + UUID.randomUUID() + "'", null);
	}

	@Test
	void aCommitRefusedForAHistorySequenceMovedBehindTheOwnersBackWritesNothing() throws Exception {
		// as if another task of the same epoch had committed first; put back afterwards
		refusedAfter("UPDATE " + table("workflow_run") + " SET history_seq = history_seq + 1",
				"UPDATE " + table("workflow_run") + " SET history_seq = history_seq - 1");
	}

	@Test
	void aCommitRefusedForARunClosedBehindTheOwnersBackWritesNothing() throws Exception {
		refusedAfter("UPDATE " + table("workflow_run") + " SET status = 'TERMINATED'",
				"UPDATE " + table("workflow_run") + " SET status = 'RUNNING'");
	}

	/**
	 * @param behindTheBack changes the run row while the owner's commit is held
	 * @param putBack undoes it after the checks (when the change alone would leave the
	 * run inconsistent), or {@code null}
	 */
	private void refusedAfter(String behindTheBack, String putBack) throws Exception {
		Steps.CALLS.set(0);
		StallingHooks hooks = new StallingHooks();
		// commit 1 is the first task, with the start; commit 2 takes the signal and
		// schedules the step
		hooks.stallCommitNumber = 2;
		WorkflowEngine a = node("a", hooks);
		WorkflowHandle<String> handle = a.client().start(SignalThenStep::run, StartOptions.withId("behind-the-back"));
		handle.signal("go", "first");
		assertThat(hooks.commitStalled.await(10, TimeUnit.SECONDS)).isTrue();

		// the run row changes between the owner's read and its commit
		this.engines.jdbc().update(behindTheBack);
		List<Map<String, Object>> history = history();
		Map<String, Object> row = run();
		assertThat(history).hasSize(1);
		assertThat(this.engines.count("inbox")).isEqualTo(1);
		hooks.release();

		// the statement matched no row: no history row, no activity, the signal still in
		// the inbox
		await().until(() -> !EngineInternals.node(a).holdsRun(handle.runId()) || this.engines.count("history") != 1);
		assertThat(EngineInternals.node(a).holdsRun(handle.runId())).as("the owner evicted the run").isFalse();
		assertThat(a.cachedRuns()).isZero();
		assertThat(history()).usingRecursiveComparison().isEqualTo(history);
		assertThat(this.engines.count("activity")).isZero();
		assertThat(this.engines.count("timer")).isZero();
		assertThat(this.engines.count("inbox")).isEqualTo(1);
		assertThat(run()).isEqualTo(row);
		assertThat(Steps.CALLS).as("the step of the refused commit never ran").hasValue(0);

		// the run goes on from what the database holds, on another node, once a is gone
		if (putBack != null) {
			this.engines.jdbc().update(putBack);
		}
		a.shutdown();
		WorkflowEngine b = this.engines
			.start(this.engines.builder().register(SignalThenStep.class).registerActivities(new Steps("b")));
		assertThat(b.client().handle("behind-the-back", String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("first@b");
		assertThat(Steps.CALLS).hasValue(1);
		assertThat(b.client().handle("behind-the-back").history()).extracting(HistoryEvent::type)
			.filteredOn("ACTIVITY_SCHEDULED"::equals)
			.hasSize(1);
		Engines.assertReplays(b, handle.runId());
	}

}
