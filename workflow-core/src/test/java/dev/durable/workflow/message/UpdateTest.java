package dev.durable.workflow.message;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.UpdateValidator;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowInit;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownHandlerException;
import dev.durable.workflow.client.UpdateHandle;
import dev.durable.workflow.client.UpdateOptions;
import dev.durable.workflow.client.UpdateStage;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowIdConflictPolicy;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.WorkflowUpdateFailedException;
import dev.durable.workflow.client.WorkflowUpdateRejectedException;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Updates (DESIGN 4.2, reference/signals-queries-updates.txt "Update, up close"):
 * validation without a trace, the ACCEPTED and COMPLETED stages, dedupe by update id,
 * failures of the handler, and update-with-start.
 */
@Timeout(120)
class UpdateTest {

	private final Engines engines = new Engines();

	/** Callers that wait for an update in the background; interrupted after the test. */
	private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();

	@AfterEach
	void close() {
		this.callers.shutdownNow();
		Gate.release.countDown();
		Counter.fixed = true;
		this.engines.close();
	}

	/** An activity that blocks until the test opens the gate. */
	@Activity
	public static class Gate {

		static volatile CountDownLatch entered = new CountDownLatch(1);

		static volatile CountDownLatch release = new CountDownLatch(1);

		public String pass(String value) {
			entered.countDown();
			try {
				if (!release.await(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("the gate was never opened");
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			return value + " passed";
		}

	}

	/**
	 * A total changed by updates; closes on the "finish" signal once its handlers are
	 * done.
	 */
	@Workflow("up-counter")
	public static class Counter {

		static volatile boolean fixed = true;

		private final Gate gate;

		private int total;

		private int applied;

		private boolean done;

		public Counter(Gate gate) {
			this.gate = gate;
		}

		@WorkflowInit
		public void init(int initial) {
			this.total = initial;
		}

		@WorkflowRun
		public int run(int initial) {
			Workflows.await(() -> this.done);
			Workflows.await(Workflows::allHandlersFinished);
			return this.total;
		}

		@UpdateMethod
		public int add(int amount) {
			this.applied++;
			this.total += amount;
			return this.total;
		}

		@UpdateValidator(update = "add")
		public void validateAdd(int amount) {
			if (amount <= 0) {
				throw new IllegalArgumentException("amount must be positive: " + amount);
			}
		}

		@UpdateMethod
		public String slow(String value) {
			return this.gate.pass(value);
		}

		@UpdateMethod
		public int failing(String why) {
			throw ApplicationFailure.newFailure(why, "UpdateFailed");
		}

		@UpdateMethod
		public int buggy(int amount) {
			if (!fixed) {
				Object missing = null;
				missing.toString();
			}
			this.total += amount;
			return this.total;
		}

		@SignalMethod
		public void finish() {
			this.done = true;
		}

		@QueryMethod
		public int total() {
			return this.total;
		}

		@QueryMethod
		public int applied() {
			return this.applied;
		}

	}

	private WorkflowEngine worker() {
		return this.engines.start(this.engines.builder().register(Counter.class).registerActivities(new Gate()));
	}

	private WorkflowHandle<Integer> startCounter(WorkflowEngine engine, String id) {
		WorkflowHandle<Integer> handle = engine.client().start(Counter::run, 0, StartOptions.withId(id));
		await().until(() -> handle.describe().workflowTasks() == 1);
		return handle;
	}

	private static long count(WorkflowHandle<?> handle, String type) {
		return handle.history().stream().filter((e) -> e.type().equals(type)).count();
	}

	private int updateRecords() {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".dedup WHERE kind = 'UPDATE'",
					Integer.class);
	}

	private static Duration backoffOf(int attempts) {
		Duration backoff = Duration.ofSeconds(1L << Math.min(Math.max(attempts, 1) - 1, 20));
		return (backoff.compareTo(Duration.ofMinutes(10)) > 0) ? Duration.ofMinutes(10) : backoff;
	}

	// ---- validation
	// --------------------------------------------------------------------------

	@Test
	void aRejectedUpdateLeavesNoEventAndReachesTheCaller() {
		WorkflowEngine engine = worker();
		WorkflowHandle<Integer> handle = startCounter(engine, "rejecting");
		int events = handle.history().size();
		int tasks = handle.describe().workflowTasks();

		assertThatThrownBy(() -> handle.update(Counter::add, -1)).isInstanceOf(WorkflowUpdateRejectedException.class)
			.hasMessageContaining("amount must be positive: -1");
		assertThatThrownBy(() -> handle.startUpdate(Counter::add, 0, UpdateOptions.withId("rejected-0")))
			.isInstanceOf(WorkflowUpdateRejectedException.class)
			.hasMessageContaining("amount must be positive: 0");
		assertThat(handle.history()).hasSize(events);
		assertThat(handle.describe().workflowTasks()).isEqualTo(tasks);
		assertThat(handle.query(Counter::applied)).isZero();
		// the outcome is kept for the caller, by update id
		assertThatThrownBy(() -> handle.updateHandle("rejected-0", Integer.class).result())
			.isInstanceOf(WorkflowUpdateRejectedException.class);

		assertThat(handle.update(Counter::add, 2)).isEqualTo(2);
		assertThat(handle.history()).extracting(HistoryEvent::type)
			.containsSubsequence("UPDATE_ACCEPTED", "UPDATE_COMPLETED");
		handle.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(2);
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- stages
	// --------------------------------------------------------------------------------

	@Test
	void startUpdateReturnsOnceAcceptedAndTheResultComesLater() throws Exception {
		WorkflowEngine engine = worker();
		WorkflowHandle<Integer> handle = startCounter(engine, "accepted");
		UpdateHandle<String> update = slowUpdateInItsActivity(handle, "slow-1");
		assertThat(update.updateId()).isEqualTo("slow-1");
		assertThat(update.stage()).isEqualTo(UpdateStage.ACCEPTED);
		assertThat(count(handle, "UPDATE_ACCEPTED")).isEqualTo(1);
		assertThat(count(handle, "UPDATE_COMPLETED")).isZero();
		// the run keeps handling messages while the handler waits for its activity
		assertThat(handle.update(Counter::add, 1)).isEqualTo(1);

		Gate.release.countDown();
		assertThat(update.result(Duration.ofSeconds(10))).isEqualTo("x passed");
		assertThat(update.stage()).isEqualTo(UpdateStage.COMPLETED);
		assertThat(handle.updateHandle("slow-1", String.class).result()).isEqualTo("x passed");
		handle.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(1);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void anUpdateStillRunningWhenTheRunIsTerminatedFailsForItsCaller() throws Exception {
		WorkflowHandle<Integer> handle = startCounter(worker(), "terminated-while-accepted");
		UpdateHandle<String> update = slowUpdateInItsActivity(handle, "slow-cut");

		handle.terminate("stop");
		assertThatThrownBy(() -> update.result(Duration.ofSeconds(10)))
			.isInstanceOf(WorkflowUpdateFailedException.class)
			.hasMessageContaining("closed (TERMINATED) before the update completed");
		assertThat(update.stage()).isEqualTo(UpdateStage.COMPLETED);
	}

	/**
	 * Starts a {@code slow} update, accepted, and waits until its handler is in its
	 * activity (the gate).
	 */
	private static UpdateHandle<String> slowUpdateInItsActivity(WorkflowHandle<Integer> handle, String updateId)
			throws InterruptedException {
		Gate.entered = new CountDownLatch(1);
		Gate.release = new CountDownLatch(1);
		UpdateHandle<String> update = handle.startUpdate(Counter::slow, "x",
				UpdateOptions.withId(updateId).waitFor(UpdateStage.ACCEPTED));
		assertThat(Gate.entered.await(10, TimeUnit.SECONDS)).as("the handler runs its activity").isTrue();
		return update;
	}

	// ---- dedupe
	// --------------------------------------------------------------------------------

	@Test
	void aRetriedUpdateIdGetsTheStoredOutcomeWithoutRunningTheHandlerAgain() {
		WorkflowEngine engine = worker();
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		WorkflowHandle<Integer> handle = startCounter(engine, "dedupe");
		UpdateOptions once = UpdateOptions.withId("once").waitFor(UpdateStage.COMPLETED);

		assertThat(handle.startUpdate(Counter::add, 5, once).result()).isEqualTo(5);
		// retried, even with another argument and from another node: the stored outcome
		assertThat(handle.startUpdate(Counter::add, 7, once).result()).isEqualTo(5);
		assertThat(client.client().handle("dedupe").startUpdate("add", 5, Integer.class, once).result()).isEqualTo(5);
		assertThat(handle.query(Counter::applied)).isEqualTo(1);
		assertThat(handle.query(Counter::total)).isEqualTo(5);
		assertThat(count(handle, "UPDATE_ACCEPTED")).isEqualTo(1);
		assertThat(handle.updateHandle("once", Integer.class).result()).isEqualTo(5);

		// ids are scoped to the workflow id
		WorkflowHandle<Integer> other = startCounter(engine, "dedupe-other");
		assertThat(other.startUpdate(Counter::add, 3, once).result()).isEqualTo(3);

		handle.signal(Counter::finish);
		other.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(5);
		assertThat(other.result(Duration.ofSeconds(10))).isEqualTo(3);
		// fetched later by id, after the run closed
		assertThat(handle.updateHandle("once", Integer.class).result()).isEqualTo(5);
		Engines.assertReplays(engine, handle.runId());
		Engines.assertReplays(engine, other.runId());
	}

	// ---- failures of the handler
	// ---------------------------------------------------------------

	@Test
	void anApplicationFailureFailsOnlyThatUpdate() {
		WorkflowEngine engine = worker();
		WorkflowHandle<Integer> handle = startCounter(engine, "failing-update");
		assertThatThrownBy(() -> handle.update(Counter::failing, "not today"))
			.isInstanceOf(WorkflowUpdateFailedException.class)
			.satisfies((ex) -> {
				assertThat(ex.getCause()).isInstanceOf(ApplicationFailure.class).hasMessage("not today");
				assertThat(((ApplicationFailure) ex.getCause()).getType()).isEqualTo("UpdateFailed");
			});
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(handle.describe().taskFailure()).isNull();
		assertThat(count(handle, "UPDATE_COMPLETED")).isEqualTo(1);
		assertThat(handle.update(Counter::add, 4)).isEqualTo(4);
		handle.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(4);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void anyOtherExceptionFailsTheTaskAndTheCallerWaitsUntilTheCodeIsFixed() throws Exception {
		WorkflowEngine engine = worker();
		WorkflowHandle<Integer> handle = startCounter(engine, "buggy-update");
		Counter.fixed = false;
		CompletableFuture<Integer> caller = CompletableFuture.supplyAsync(() -> handle
			.startUpdate(Counter::buggy, 3, UpdateOptions.withId("bug-1").waitFor(UpdateStage.COMPLETED))
			.result(), this.callers);
		await().until(() -> handle.describe().taskFailure() != null);
		assertThat(handle.describe().taskFailure()).contains("NullPointerException");
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(caller).isNotDone();
		assertThat(handle.updateHandle("bug-1", Integer.class).stage()).isEqualTo(UpdateStage.ADMITTED);
		assertThat(count(handle, "UPDATE_ACCEPTED")).isZero();

		Counter.fixed = true;
		this.engines.clock.advance(backoffOf(handle.describe().taskAttempts()));
		assertThat(caller.get(10, TimeUnit.SECONDS)).isEqualTo(3);
		assertThat(handle.describe().taskFailure()).isNull();
		handle.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(3);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aFailedTaskWaitsForItsBackoffBeforeItIsRetried() {
		WorkflowEngine engine = worker();
		WorkflowHandle<Integer> handle = startCounter(engine, "backoff");
		Counter.fixed = false;
		this.callers.execute(() -> handle.startUpdate(Counter::buggy, 3,
				UpdateOptions.withId("bug-2").waitFor(UpdateStage.COMPLETED)));
		await().until(() -> handle.describe().taskFailure() != null);
		// the engine clock stands still: the retry due one second later must not happen
		await().during(Duration.ofSeconds(1))
			.atMost(Duration.ofSeconds(3))
			.untilAsserted(() -> assertThat(handle.describe().taskAttempts()).as("failed task attempts").isEqualTo(1));
		Counter.fixed = true;
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.updateHandle("bug-2", Integer.class).result(Duration.ofSeconds(10))).isEqualTo(3);
		handle.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(3);
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- unknown names, closed runs
	// ------------------------------------------------------------

	@Test
	void anUpdateWithAnUnknownNameIsRejected() {
		WorkflowEngine engine = worker();
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		WorkflowHandle<Integer> handle = startCounter(engine, "unknown-update");
		int events = handle.history().size();
		// checked by a node that knows the workflow type...
		assertThatThrownBy(() -> handle.update("nope", 1, Integer.class)).isInstanceOf(UnknownHandlerException.class)
			.hasMessageContaining("nope");
		// ...and by the run itself when the sender does not
		assertThatThrownBy(() -> client.client().handle("unknown-update").update("nope", 1, Integer.class))
			.isInstanceOf(UnknownHandlerException.class)
			.hasMessageContaining("nope");
		assertThat(handle.history()).hasSize(events);
		handle.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isZero();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void anUpdateToAClosedRunIsRejected() {
		WorkflowEngine engine = worker();
		WorkflowHandle<Integer> handle = startCounter(engine, "closed-update");
		handle.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isZero();
		int records = updateRecords();
		assertThatThrownBy(() -> handle.update(Counter::add, 1)).isInstanceOf(WorkflowClosedException.class);
		assertThatThrownBy(() -> handle.startUpdate(Counter::add, 1, UpdateOptions.withId("too-late")))
			.isInstanceOf(WorkflowClosedException.class);
		assertThat(updateRecords()).isEqualTo(records);
		assertThat(this.engines.count("inbox")).isZero();

		WorkflowHandle<Integer> terminated = startCounter(engine, "terminated-update");
		terminated.terminate("stop");
		assertThatThrownBy(() -> terminated.update(Counter::add, 1)).isInstanceOf(WorkflowClosedException.class);
		Engines.assertReplays(engine, handle.runId());
		Engines.assertReplays(engine, terminated.runId());
	}

	// ---- update-with-start
	// ---------------------------------------------------------------------

	@Test
	void updateWithStartStartsTheRunOrUpdatesTheOpenOne() {
		WorkflowEngine engine = worker();
		StartOptions options = StartOptions.builder()
			.workflowId("with-start")
			.idConflictPolicy(WorkflowIdConflictPolicy.USE_EXISTING)
			.build();
		UpdateHandle<Integer> first = engine.client()
			.updateWithStart(Counter::run, 10, options, "add", 5, Integer.class, null);
		// the handler ran after @WorkflowInit, in the first task
		assertThat(first.result(Duration.ofSeconds(10))).isEqualTo(15);
		WorkflowHandle<Integer> handle = engine.client().handle("with-start", Integer.class);
		assertThat(handle.history()).extracting(HistoryEvent::type)
			.startsWith("WORKFLOW_STARTED", "UPDATE_ACCEPTED", "UPDATE_COMPLETED");

		UpdateHandle<Integer> second = engine.client()
			.updateWithStart(Counter::run, 100, options, "add", 5, Integer.class, null);
		assertThat(second.result(Duration.ofSeconds(10))).isEqualTo(20);
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		assertThat(count(handle, "UPDATE_ACCEPTED")).isEqualTo(2);

		handle.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(20);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void updateWithStartWithTheFailPolicyStartsOrFailsWholly() {
		WorkflowEngine engine = worker();
		StartOptions options = StartOptions.withId("fail-policy"); // idConflictPolicy
																	// FAIL, the default
		UpdateHandle<Integer> first = engine.client()
			.updateWithStart(Counter::run, 10, options, "add", 5, Integer.class, null);
		assertThat(first.result(Duration.ofSeconds(10))).isEqualTo(15);
		WorkflowHandle<Integer> handle = engine.client().handle("fail-policy", Integer.class);
		// the run is open: the call fails, and the update is neither admitted nor run
		assertThatThrownBy(() -> engine.client()
			.updateWithStart(Counter::run, 10, options, "add", 7, Integer.class, UpdateOptions.withId("second-update")))
			.isInstanceOf(WorkflowAlreadyStartedException.class);
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		assertThat(count(handle, "UPDATE_ACCEPTED")).isEqualTo(1);
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".dedup WHERE dedup_key = 'second-update'",
					Integer.class))
			.isZero();
		handle.signal(Counter::finish);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo(15);
		Engines.assertReplays(engine, handle.runId());
	}

}
