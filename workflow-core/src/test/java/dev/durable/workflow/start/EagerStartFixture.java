package dev.durable.workflow.start;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowEngineListener;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.run.TaskFailureTest.BuggyWorkflow;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.testsupport.EngineHooks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the eager start tests ({@link EagerStartTest}, {@link EagerStartFailureTest},
 * {@link EagerStartConflictTest}, {@link EagerStartResultHandoverTest}) share: the
 * workflows and the activity they start, hooks that see every task commit, a listener
 * that counts workflow tasks, and what the database holds.
 *
 * <p>
 * Eager start (DESIGN section 5, "Start on the starting node"): a start on a node that
 * serves the type runs the run's first workflow task inside the start's transaction, so
 * the start and that task are one commit; a close decided on this node hands its outcome
 * to the callers waiting for the result in this JVM.
 */
abstract class EagerStartFixture {

	final Engines engines = new Engines();

	final ExecutorService waiters = Executors.newCachedThreadPool();

	@AfterEach
	void close() {
		this.waiters.shutdownNow();
		this.engines.close();
	}

	@Activity
	public static class Steps {

		final AtomicInteger calls = new AtomicInteger();

		public String step(String name) {
			this.calls.incrementAndGet();
			return "step " + name;
		}

	}

	/** Sleeps an hour, then one step. */
	@Workflow("eager-sleeper")
	public static class Sleeper {

		private final Steps steps;

		public Sleeper(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String name) {
			Workflows.sleep(Duration.ofHours(1));
			return this.steps.step(name);
		}

	}

	/** Waits for a "go" signal; "fail" fails the run. */
	@Workflow(value = "eager-waiter", receives = { "go" })
	public static class Waiter {

		@WorkflowRun
		public String run(String prefix) {
			String go = Workflows.receive("go", String.class);
			if ("fail".equals(go)) {
				throw ApplicationFailure.newNonRetryableFailure("gave up on " + prefix, "GaveUp");
			}
			return prefix + " " + go;
		}

	}

	/** Each run waits for a "go" signal, then continues as new until round 3. */
	@Workflow(value = "eager-chain", receives = { "go" })
	public static class Chain {

		@WorkflowRun
		public String run(int round) {
			String go = Workflows.receive("go", String.class);
			if (round < 3) {
				Workflows.continueAsNew(round + 1);
				throw new IllegalStateException("continueAsNew returned");
			}
			return "done " + round + " " + go;
		}

	}

	/**
	 * Sleeps; counts how often its code was left (returned, or unwound when its run was
	 * dropped).
	 */
	@Workflow("eager-unwinding")
	public static class Unwinding {

		static final AtomicInteger LEFT = new AtomicInteger();

		@WorkflowRun
		public String run() {
			try {
				Workflows.sleep(Duration.ofHours(1));
				return "woke";
			}
			finally {
				LEFT.incrementAndGet();
			}
		}

	}

	/** One step, that writes down its calls. */
	@Workflow("eager-one-step")
	public static class OneStep {

		private final Steps steps;

		public OneStep(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String name) {
			return this.steps.step(name);
		}

	}

	/**
	 * Writes down the thread of every task commit; may fail one, as if the connection
	 * dropped.
	 */
	static final class CommitHooks implements EngineHooks {

		final List<Thread> threads = new CopyOnWriteArrayList<>();

		volatile int failCommitNumber;

		volatile int stallCommitNumber;

		final CountDownLatch stalled = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@Override
		public void beforeTaskCommit(UUID runId) {
			this.threads.add(Thread.currentThread());
			int number = this.threads.size();
			if (number == this.failCommitNumber) {
				throw new IllegalStateException("connection lost during commit " + number);
			}
			if (number == this.stallCommitNumber) {
				this.stalled.countDown();
				try {
					this.release.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

	/** Counts workflow tasks begun and ended, and how they ended. */
	static final class TaskCounter implements WorkflowEngineListener {

		final AtomicInteger started = new AtomicInteger();

		final List<String> ended = new CopyOnWriteArrayList<>();

		@Override
		public Execution workflowTaskStarted(Run run) {
			this.started.incrementAndGet();
			return (failure) -> this.ended.add((failure != null) ? "failed" : "ok");
		}

	}

	WorkflowEngine worker(EngineHooks hooks, Steps steps) {
		return this.engines.start(this.engines.builder()
			.register(Sleeper.class, Waiter.class, BuggyWorkflow.class, Chain.class)
			.registerActivities(steps)
			.hooks(hooks));
	}

	WorkflowEngine worker(EngineHooks hooks) {
		return worker(hooks, new Steps());
	}

	Map<String, Object> runRow(UUID runId) {
		return this.engines.jdbc()
			.queryForMap("SELECT owner_node, epoch, history_seq, status, next_wake_at FROM " + this.engines.schema
					+ ".workflow_run WHERE run_id = ?", runId);
	}

	void assertNoRows(String... tables) {
		for (String table : tables) {
			assertThat(this.engines.count(table)).as("rows in %s", table).isZero();
		}
	}

	static List<String> types(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).toList();
	}

}
