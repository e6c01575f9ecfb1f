package dev.durable.workflow.start;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.internal.commit.TaskWriter;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Group commit on a running engine (DESIGN section 5, "Performance rules"): runs that
 * commit at the same time share transactions, and every one of them still ends with the
 * right result and history. (TaskWriterTest covers a batch's failures and the writer's
 * stop.)
 */
class GroupCommitTest {

	private static final int RUNS = 30;

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Steps {

		final AtomicInteger calls = new AtomicInteger();

		public String step(String name) {
			this.calls.incrementAndGet();
			return name.toUpperCase();
		}

	}

	/** Three steps, one workflow task each. */
	@Workflow("group-commit-three-steps")
	public static class ThreeSteps {

		private final Steps steps;

		public ThreeSteps(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String name) {
			return this.steps.step(name + "-a") + " " + this.steps.step(name + "-b") + " "
					+ this.steps.step(name + "-c");
		}

	}

	@Test
	void runsCommittingAtOnceShareTransactionsAndAllEndRight() throws Exception {
		Steps steps = new Steps();
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(ThreeSteps.class).registerActivities(steps));
		String history = this.engines.schema + ".history";

		// while the test holds this lock no task commit can insert its history row: the
		// first start
		// to commit waits on its own thread, the next on the first writer thread, the
		// others queue
		// (and once 8 wait, the second writer thread takes them as one batch, which waits
		// too)
		List<CompletableFuture<WorkflowHandle<String>>> starts = new ArrayList<>();
		List<Thread> starters = new ArrayList<>();
		try (Connection lock = TestDatabase.openTransaction()) {
			lock.createStatement().execute("LOCK TABLE " + history + " IN SHARE MODE");
			for (int i = 0; i < RUNS; i++) {
				String name = "run-" + i;
				CompletableFuture<WorkflowHandle<String>> start = new CompletableFuture<>();
				starts.add(start);
				starters.add(Thread.ofPlatform().name("start-" + i).start(() -> {
					try {
						start.complete(engine.client().start(ThreeSteps::run, name, StartOptions.withId(name)));
					}
					catch (Throwable ex) {
						start.completeExceptionally(ex);
					}
				}));
			}
			await().until(() -> starters.stream().allMatch(GroupCommitTest::insideTaskWriter));
			lock.commit();
		}

		List<WorkflowHandle<String>> handles = new ArrayList<>();
		for (CompletableFuture<WorkflowHandle<String>> start : starts) {
			handles.add(start.get());
		}
		for (int i = 0; i < RUNS; i++) {
			WorkflowHandle<String> handle = handles.get(i);
			assertThat(handle.result(Duration.ofSeconds(30))).isEqualTo("RUN-%d-A RUN-%d-B RUN-%d-C", i, i, i);
			assertThat(handle.history()).extracting(HistoryEvent::type)
				.as("history of run-%d", i)
				.containsExactly("WORKFLOW_STARTED", "ACTIVITY_SCHEDULED", "ACTIVITY_COMPLETED", "ACTIVITY_SCHEDULED",
						"ACTIVITY_COMPLETED", "ACTIVITY_SCHEDULED", "ACTIVITY_COMPLETED", "WORKFLOW_COMPLETED");
			Engines.assertReplays(engine, handle.runId());
		}
		assertThat(steps.calls).as("every step ran once").hasValue(3 * RUNS);

		// the rows a transaction inserted carry its id (xmin): the 30 starts, each
		// inserted with its
		// first task, went in at most 5 transactions: the one written on its caller's
		// thread, one
		// per writer thread while the lock was held, and what queued meanwhile, taken by
		// the two
		// writer threads once free
		List<Map<String, Object>> transactions = this.engines.jdbc()
			.queryForList("SELECT xmin::text AS tx, count(*) AS runs FROM " + history + " WHERE seq = 1"
					+ " GROUP BY xmin::text ORDER BY runs DESC");
		assertThat(transactions).as("transactions that wrote the starts").hasSizeLessThanOrEqualTo(5);
		assertThat(transactions.stream().mapToLong((t) -> (Long) t.get("runs")).sum()).isEqualTo(RUNS);
	}

	/**
	 * Whether the thread's commit is in the writer: written on this thread, or queued
	 * (waiting for its batch, possibly being written by a writer thread).
	 */
	private static boolean insideTaskWriter(Thread thread) {
		List<StackTraceElement> stack = Arrays.asList(thread.getStackTrace());
		return stack.stream().anyMatch((f) -> is(f, TaskWriter.class.getName(), "write")) && stack.stream()
			.anyMatch((f) -> is(f, CompletableFuture.class.getName(), "get")
					|| is(f, TaskWriter.class.getPackageName() + ".TaskCommitStatement", "execute"));
	}

	private static boolean is(StackTraceElement frame, String className, String methodName) {
		return frame.getClassName().equals(className) && frame.getMethodName().equals(methodName);
	}

}
