package dev.durable.workflow.start;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.internal.commit.TaskWriter;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Eager starts whose first task closes the run (a workflow of local activities completes
 * in it) go through the group commit like every other eager start: the run is inserted
 * closed, with its history and outcome, in one statement, and starts made at the same
 * time share a transaction. A start refused in a batch (its id held by an open run) is
 * refused alone; a failed commit leaves nothing, as before.
 */
class EagerStartGroupCommitTest extends EagerStartFixture {

	private static final int RUNS = 30;

	/** Three local activities: the run completes in its first workflow task. */
	@Workflow("eager-local-steps")
	public static class LocalSteps {

		@WorkflowRun
		public String run(String name) {
			Steps steps = Workflows.localActivities(Steps.class);
			return steps.step(name + "-a") + ", " + steps.step(name + "-b") + ", " + steps.step(name + "-c");
		}

	}

	private WorkflowEngine engine(CommitHooks hooks, Steps steps) {
		return this.engines.start(
				this.engines.builder().register(LocalSteps.class, Waiter.class).registerActivities(steps).hooks(hooks));
	}

	@Test
	void startsThatCloseInTheirFirstTaskShareTransactions() throws Exception {
		Steps steps = new Steps();
		WorkflowEngine engine = engine(new CommitHooks(), steps);
		List<CompletableFuture<WorkflowHandle<String>>> starts = new ArrayList<>();
		List<Thread> starters = new ArrayList<>();
		// while the test holds this lock no start can insert its history row: each waits,
		// on its
		// own thread, in the writer's queue or in the database
		try (Connection lock = lockHistory()) {
			for (int i = 0; i < RUNS; i++) {
				starters.add(start(engine, "local-" + i, starts));
			}
			await().atMost(Duration.ofSeconds(30))
				.until(() -> starters.stream().allMatch(EagerStartGroupCommitTest::waiting));
			lock.commit();
		}

		for (int i = 0; i < RUNS; i++) {
			WorkflowHandle<String> handle = starts.get(i).get(30, TimeUnit.SECONDS);
			assertThat(handle.result(Duration.ofSeconds(10)))
				.isEqualTo("step local-%d-a, step local-%d-b, step local-%d-c", i, i, i);
			assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.COMPLETED);
			assertThat(handle.describe().workflowTasks()).as("one task, the start's").isEqualTo(1);
			Engines.assertReplays(engine, handle.runId());
		}
		assertThat(steps.calls).hasValue(3 * RUNS);
		// each run was inserted closed, with its history and outcome, by one statement:
		// the run row
		// and the history row carry one transaction id (xmin), and the starts share
		// transactions
		// (at most one on a caller's thread and two per writer thread, for 30 starts)
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + table("workflow_run") + " r JOIN " + table("history")
					+ " h ON h.run_id = r.run_id JOIN " + table("visibility") + " v ON v.run_id = r.run_id"
					+ " WHERE r.xmin::text = h.xmin::text AND v.xmin::text = h.xmin::text"
					+ " AND r.status = 'COMPLETED' AND v.status = 'COMPLETED' AND r.closed_at IS NOT NULL"
					+ " AND v.close_time = r.closed_at", Integer.class))
			.as("runs inserted closed in the transaction of their history")
			.isEqualTo(RUNS);
		assertThat(transactionsOfHistory()).as("transactions that wrote the %d starts", RUNS).isLessThanOrEqualTo(5);
	}

	@Test
	void aStartRefusedInsideABatchFailsAloneAndTheOthersCommit() throws Exception {
		WorkflowEngine engine = engine(new CommitHooks(), new Steps());
		WorkflowHandle<String> open = engine.client().start(Waiter::run, "holder", StartOptions.withId("taken"));
		List<CompletableFuture<WorkflowHandle<String>>> starts = new ArrayList<>();
		try (Connection lock = lockHistory()) {
			// two starts, one at a time, occupy the caller's thread and the first writer
			// thread...
			for (int i = 0; i < 2; i++) {
				Thread starter = start(engine, "busy-" + i, starts);
				int busyWriters = i;
				await().atMost(Duration.ofSeconds(30))
					.until(() -> waiting(starter) && writersInDatabase() >= busyWriters);
			}
			// ...so these three queue (too few for the second writer thread), and the
			// first writer
			// thread, once free, takes them as one batch
			List<Thread> queued = List.of(start(engine, "before", starts), start(engine, "taken", starts),
					start(engine, "after", starts));
			await().atMost(Duration.ofSeconds(30))
				.until(() -> queued.stream().allMatch(EagerStartGroupCommitTest::queued));
			lock.commit();
		}

		assertThatThrownBy(() -> starts.get(3).get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
			.cause()
			.isInstanceOf(WorkflowAlreadyStartedException.class)
			.hasMessageContaining(open.runId().toString())
			.satisfies((ex) -> assertThat(((WorkflowAlreadyStartedException) ex).getExistingRunId())
				.isEqualTo(open.runId()));
		for (int i : new int[] { 0, 1, 2, 4 }) {
			assertThat(starts.get(i).get(30, TimeUnit.SECONDS).result(Duration.ofSeconds(10))).startsWith("step ");
		}
		assertThat(historyTransaction("before")).as("the batch committed the others together")
			.isEqualTo(historyTransaction("after"));
		// the refused start wrote nothing; the open run is untouched
		assertThat(this.engines.jdbc()
			.queryForList("SELECT status FROM " + table("workflow_run") + " WHERE workflow_id = 'taken'", String.class))
			.containsExactly("RUNNING");
		assertThat(this.engines.count("workflow_run")).isEqualTo(5);
		assertThat(this.engines.count("run_payload")).isEqualTo(5);
		assertThat(this.engines.count("visibility")).isEqualTo(5);
		assertThat(this.engines.count("history")).isEqualTo(5);
		open.signal("go", "now");
		assertThat(open.result(Duration.ofSeconds(10))).isEqualTo("holder now");
	}

	@Test
	void aStartThatClosesRunsOnceItsIdIsFreeAgain() {
		WorkflowEngine engine = engine(new CommitHooks(), new Steps());
		WorkflowHandle<String> first = engine.client().start(LocalSteps::run, "one", StartOptions.withId("again"));
		WorkflowHandle<String> second = engine.client().start(LocalSteps::run, "two", StartOptions.withId("again"));
		assertThat(first.result(Duration.ofSeconds(10))).isEqualTo("step one-a, step one-b, step one-c");
		assertThat(second.result(Duration.ofSeconds(10))).isEqualTo("step two-a, step two-b, step two-c");
		assertThat(second.runId()).isNotEqualTo(first.runId());
		assertThat(engine.client().handle("again").describe().runId()).isEqualTo(second.runId());
	}

	@Test
	void aFailedCommitOfAStartThatClosesFailsTheStartAndLeavesNoRun() {
		CommitHooks hooks = new CommitHooks();
		hooks.failCommitNumber = 1;
		Steps steps = new Steps();
		WorkflowEngine engine = engine(hooks, steps);
		assertThatThrownBy(() -> engine.client().start(LocalSteps::run, "x", StartOptions.withId("crashed")))
			.isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("connection lost during commit 1");
		assertNoRows("workflow_run", "run_payload", "visibility", "history", "timer", "activity", "inbox");
		assertThat(engine.cachedRuns()).isZero();

		WorkflowHandle<String> handle = engine.client().start(LocalSteps::run, "y", StartOptions.withId("crashed"));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("step y-a, step y-b, step y-c");
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		Engines.assertReplays(engine, handle.runId());
	}

	private Thread start(WorkflowEngine engine, String id, List<CompletableFuture<WorkflowHandle<String>>> starts) {
		CompletableFuture<WorkflowHandle<String>> start = new CompletableFuture<>();
		starts.add(start);
		return Thread.ofPlatform().name("start-" + id).start(() -> {
			try {
				start.complete(engine.client().start(LocalSteps::run, id, StartOptions.withId(id)));
			}
			catch (Throwable ex) {
				start.completeExceptionally(ex);
			}
		});
	}

	private Connection lockHistory() throws Exception {
		Connection lock = TestDatabase.openTransaction();
		lock.createStatement().execute("LOCK TABLE " + table("history") + " IN SHARE MODE");
		return lock;
	}

	private String table(String name) {
		return this.engines.schema + "." + name;
	}

	private int transactionsOfHistory() {
		List<Map<String, Object>> transactions = this.engines.jdbc()
			.queryForList("SELECT xmin::text AS tx FROM " + table("history") + " GROUP BY xmin::text");
		return transactions.size();
	}

	private String historyTransaction(String workflowId) {
		return this.engines.jdbc()
			.queryForObject("SELECT h.xmin::text FROM " + table("history") + " h JOIN " + table("workflow_run")
					+ " r ON r.run_id = h.run_id WHERE r.workflow_id = ?", String.class, workflowId);
	}

	/**
	 * Whether the starter waits for its commit: queued in the writer, or blocked in the
	 * database (written on its own thread, or, without the group commit, in its own
	 * transaction, or waiting for a connection of the pool while the others hold them).
	 */
	private static boolean waiting(Thread starter) {
		List<StackTraceElement> stack = Arrays.asList(starter.getStackTrace());
		return queued(starter) || stack.stream()
			.anyMatch((f) -> f.getClassName().startsWith("org.postgresql.core.")
					|| f.getClassName().startsWith("com.zaxxer.hikari."));
	}

	/**
	 * Whether the starter's commit waits in the writer's queue (or in a batch a writer
	 * thread writes).
	 */
	private static boolean queued(Thread starter) {
		List<StackTraceElement> stack = Arrays.asList(starter.getStackTrace());
		return stack.stream().anyMatch((f) -> is(f, TaskWriter.class.getName(), "write"))
				&& stack.stream().anyMatch((f) -> is(f, CompletableFuture.class.getName(), "get"));
	}

	/** Writer threads of the group commit that are writing to the database. */
	private static long writersInDatabase() {
		return Thread.getAllStackTraces()
			.values()
			.stream()
			.map(Arrays::asList)
			.filter((stack) -> stack.stream().anyMatch((f) -> is(f, TaskWriter.class.getName(), "loop"))
					&& stack.stream().anyMatch((f) -> f.getClassName().startsWith("org.postgresql.core.")))
			.count();
	}

	private static boolean is(StackTraceElement frame, String className, String methodName) {
		return frame.getClassName().equals(className) && frame.getMethodName().equals(methodName);
	}

}
