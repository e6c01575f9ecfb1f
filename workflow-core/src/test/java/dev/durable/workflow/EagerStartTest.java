package dev.durable.workflow;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowIdConflictPolicy;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.internal.worker.EngineHooks;
import dev.durable.workflow.TaskFailureTest.BuggyWorkflow;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StatementRecorder;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Eager start (DESIGN section 5, "Start on the starting node"): a start on a node that serves the
 * type runs the run's first workflow task inside the start's transaction, so the start and that
 * task are one commit; a close decided on this node hands its outcome to the callers waiting for
 * the result in this JVM.
 */
class EagerStartTest {

	private final Engines engines = new Engines();

	private final ExecutorService waiters = Executors.newCachedThreadPool();

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
	@Workflow("eager-waiter")
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
	@Workflow("eager-chain")
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

	/** Sleeps; counts how often its code was left (returned, or unwound when its run was dropped). */
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

	/** Writes down the thread of every task commit; may fail one, as if the connection dropped. */
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

	private WorkflowEngine worker(EngineHooks hooks, Steps steps) {
		return this.engines.start(this.engines.builder()
			.register(Sleeper.class, Waiter.class, BuggyWorkflow.class, Chain.class)
			.registerActivities(steps)
			.hooks(hooks));
	}

	private WorkflowEngine worker(EngineHooks hooks) {
		return worker(hooks, new Steps());
	}

	private Map<String, Object> runRow(UUID runId) {
		return this.engines.jdbc()
			.queryForMap("SELECT owner_node, epoch, history_seq, status, next_wake_at FROM " + this.engines.schema
					+ ".workflow_run WHERE run_id = ?", runId);
	}

	private void assertNoRows(String... tables) {
		for (String table : tables) {
			assertThat(this.engines.count(table)).as("rows in %s", table).isZero();
		}
	}

	private static List<String> types(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).toList();
	}

	// ---- 1. the first task commits with the start ----------------------------------------------

	@Test
	void aLocalStartCommitsItsFirstTaskWithTheStart() {
		CommitHooks hooks = new CommitHooks();
		Steps steps = new Steps();
		StatementRecorder recorder = new StatementRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			.register(Sleeper.class)
			.registerActivities(steps)
			.hooks(hooks));
		int before = recorder.of(Thread.currentThread()).size();
		WorkflowHandle<String> handle = engine.client().start(Sleeper::run, "ada", StartOptions.withId("eager-1"));
		List<String> started = recorder.of(Thread.currentThread())
			.stream()
			.skip(before)
			.map(StatementRecorder.Statement::sql)
			.toList();
		// the run's rows and its first task's as one statement: no look-up of earlier runs (the
		// unique index refuses a duplicate) and nothing read back
		String schema = this.engines.schema;
		assertThat(started).as("statements of the start").hasSize(1);
		assertThat(started.get(0)).startsWith("WITH u AS (INSERT INTO " + schema + ".workflow_run ")
			.contains("INSERT INTO " + schema + ".run_payload ", "INSERT INTO " + schema + ".visibility ",
					"INSERT INTO " + schema + ".history ", "INSERT INTO " + schema + ".timer ");

		// no waiting: when start returns, its first task has committed, on the caller's thread
		assertThat(hooks.threads).containsExactly(Thread.currentThread());
		assertThat(handle.describe().workflowTasks()).isEqualTo(1);
		assertThat(types(handle)).containsSubsequence("WORKFLOW_STARTED", "TIMER_STARTED");
		assertThat(this.engines.count("timer")).isEqualTo(1);
		Map<String, Object> row = runRow(handle.runId());
		assertThat(row.get("owner_node")).isEqualTo(engine.nodeId());
		assertThat(row.get("epoch")).isEqualTo(1L);
		assertThat(row.get("history_seq")).isEqualTo(1);
		// the node holds the run from its first task on
		assertThat(engine.internal().holdsRun(handle.runId())).isTrue();

		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("step ada");
		assertThat(steps.calls).hasValue(1);
		assertThat(hooks.threads).hasSize(3);
		assertThat(types(handle)).filteredOn("TIMER_STARTED"::equals).hasSize(1);
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- 2. a first task that fails in workflow code --------------------------------------------

	@Test
	void aFirstTaskThatFailsInWorkflowCodeLeavesTheRunStartedAndRetriesItWithBackoff() {
		BuggyWorkflow.fixed = false;
		CommitHooks hooks = new CommitHooks();
		WorkflowEngine engine = worker(hooks);
		Instant startedAt = this.engines.clock.instant();
		WorkflowHandle<String> handle = engine.client().start(BuggyWorkflow::run, StartOptions.withId("eager-buggy"));

		// the start committed although its first task failed: the run is stored, with nothing of the task
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

	// ---- 3. starts that are not eager ------------------------------------------------------------

	@Test
	void aStartFromAClientOnlyNodeLeavesTheFirstTaskToAWorker() throws Exception {
		CommitHooks hooks = new CommitHooks();
		hooks.stallCommitNumber = 1;
		WorkflowEngine worker = worker(hooks);
		// the client node knows the workflow class, but does not work
		CommitHooks clientHooks = new CommitHooks();
		WorkflowEngine client = this.engines.start(this.engines.builder()
			.worker(false)
			.register(Sleeper.class)
			.registerActivities(new Steps())
			.hooks(clientHooks));
		WorkflowHandle<String> handle = client.client()
			.start(Sleeper::run, "bob", StartOptions.withId("from-client"));
		assertThat(clientHooks.threads).isEmpty();

		// the start wrote the run only; the client node holds nothing
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		assertThat(this.engines.count("history")).isZero();
		assertThat(client.internal().cachedRuns()).isZero();
		// the worker runs the first task, on its own thread
		assertThat(hooks.stalled.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(hooks.threads).hasSize(1).doesNotContain(Thread.currentThread());
		assertThat(handle.describe().workflowTasks()).isZero();
		hooks.release.countDown();

		await().until(() -> this.engines.count("timer") == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("step bob");
		assertThat(hooks.threads).doesNotContain(Thread.currentThread());
		assertThat(clientHooks.threads).isEmpty();
		Engines.assertReplays(worker, handle.runId());
	}

	@Test
	void aStartThatCarriesMoreThanTheRunIsNotEager() {
		CommitHooks hooks = new CommitHooks();
		WorkflowEngine engine = worker(hooks);
		Thread caller = Thread.currentThread();
		WorkflowHandle<String> delayed = engine.client()
			.start(Waiter::run, "delayed",
					StartOptions.builder().workflowId("delayed").startDelay(Duration.ofMinutes(1)).build());
		WorkflowHandle<String> withMemo = engine.client()
			.start(Waiter::run, "memo", StartOptions.builder().workflowId("memo").memo(Map.of("k", "v")).build());
		WorkflowHandle<String> withAttributes = engine.client()
			.start(Waiter::run, "attributes", StartOptions.builder()
				.workflowId("attributes")
				.searchAttributes(Map.of("region", "eu"))
				.build());
		WorkflowHandle<String> signalled = engine.client()
			.signalWithStart(Waiter::run, "signalled", StartOptions.withId("signalled"), "go", "now");
		WorkflowHandle<String> otherQueue = engine.client()
			.start(Waiter::run, "queue", StartOptions.builder().workflowId("other-queue").taskQueue("elsewhere").build());
		assertThat(hooks.threads).as("no task committed on the caller's thread").doesNotContain(caller);

		// they run the ordinary way
		assertThat(signalled.result(Duration.ofSeconds(10))).isEqualTo("signalled now");
		await().until(() -> withMemo.describe().workflowTasks() == 1 && withAttributes.describe().workflowTasks() == 1);
		withMemo.signal("go", "m");
		withAttributes.signal("go", "a");
		assertThat(withMemo.result(Duration.ofSeconds(10))).isEqualTo("memo m");
		assertThat(withAttributes.result(Duration.ofSeconds(10))).isEqualTo("attributes a");
		assertThat(delayed.describe().workflowTasks()).isZero();
		this.engines.clock.advance(Duration.ofMinutes(1));
		await().until(() -> delayed.describe().workflowTasks() == 1);
		delayed.signal("go", "d");
		assertThat(delayed.result(Duration.ofSeconds(10))).isEqualTo("delayed d");
		// no node serves that queue: the run waits, untouched
		assertThat(otherQueue.describe().workflowTasks()).isZero();
		assertThat(otherQueue.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(hooks.threads).doesNotContain(caller);
		for (WorkflowHandle<String> handle : List.of(delayed, withMemo, withAttributes, signalled)) {
			Engines.assertReplays(engine, handle.runId());
		}
	}

	// ---- 4. duplicate starts ---------------------------------------------------------------------

	@Test
	void aDuplicateStartIsRefusedByTheUniqueIndexAndWritesNothing() {
		CommitHooks hooks = new CommitHooks();
		WorkflowEngine engine = worker(hooks);
		WorkflowHandle<String> first = engine.client().start(Waiter::run, "first", StartOptions.withId("dup"));
		assertThat(hooks.threads).hasSize(1);

		assertThatThrownBy(() -> engine.client().start(Waiter::run, "second", StartOptions.withId("dup")))
			.isInstanceOf(WorkflowAlreadyStartedException.class)
			.hasMessageContaining(first.runId().toString())
			.satisfies((ex) -> {
				assertThat(((WorkflowAlreadyStartedException) ex).getExistingRunId()).isEqualTo(first.runId());
				assertThat(((WorkflowAlreadyStartedException) ex).getWorkflowId()).isEqualTo("dup");
			});
		// the refused start's first task ran and came to its commit (the run and the task are one
		// insert), and the insert wrote nothing: no row of it is left
		assertThat(hooks.threads).hasSize(2);
		assertOnlyTheFirstRun();

		// USE_EXISTING returns the open run
		WorkflowHandle<String> existing = engine.client()
			.start(Waiter::run, "third", StartOptions.builder()
				.workflowId("dup")
				.idConflictPolicy(WorkflowIdConflictPolicy.USE_EXISTING)
				.build());
		assertThat(existing.runId()).isEqualTo(first.runId());
		// a start that may use an open run decides first: no first task ran
		assertThat(hooks.threads).hasSize(2);
		assertOnlyTheFirstRun();

		// the same from a client-only node (not eager)
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		assertThatThrownBy(() -> client.client().start(Waiter::run, "fourth", StartOptions.withId("dup")))
			.isInstanceOf(WorkflowAlreadyStartedException.class)
			.satisfies((ex) -> assertThat(((WorkflowAlreadyStartedException) ex).getExistingRunId())
				.isEqualTo(first.runId()));
		assertOnlyTheFirstRun();

		// the index covers open runs only: once closed, the id starts again (ALLOW_DUPLICATE)
		first.signal("go", "now");
		assertThat(first.result(Duration.ofSeconds(10))).isEqualTo("first now");
		WorkflowHandle<String> again = engine.client().start(Waiter::run, "again", StartOptions.withId("dup"));
		assertThat(again.runId()).isNotEqualTo(first.runId());
		assertThat(this.engines.count("workflow_run")).isEqualTo(2);
		Engines.assertReplays(engine, first.runId());
	}

	private void assertOnlyTheFirstRun() {
		assertThat(this.engines.count("workflow_run")).isEqualTo(1);
		assertThat(this.engines.count("run_payload")).isEqualTo(1);
		assertThat(this.engines.count("visibility")).isEqualTo(1);
		assertThat(this.engines.count("history")).isEqualTo(1);
	}

	@Test
	void concurrentStartsOfOneIdStartOneRunAndTheOthersNameIt() throws Exception {
		CommitHooks hooks = new CommitHooks();
		WorkflowEngine engine = worker(hooks);
		int starters = 4;
		CyclicBarrier barrier = new CyclicBarrier(starters);
		List<Future<Object>> outcomes = new ArrayList<>();
		for (int i = 0; i < starters; i++) {
			String prefix = "racer-" + i;
			outcomes.add(this.waiters.submit(() -> {
				barrier.await(10, TimeUnit.SECONDS);
				try {
					return engine.client().start(Waiter::run, prefix, StartOptions.withId("race"));
				}
				catch (WorkflowAlreadyStartedException ex) {
					return ex;
				}
			}));
		}
		List<WorkflowHandle<?>> started = new ArrayList<>();
		List<WorkflowAlreadyStartedException> refused = new ArrayList<>();
		for (Future<Object> outcome : outcomes) {
			Object value = outcome.get(30, TimeUnit.SECONDS);
			if (value instanceof WorkflowHandle<?> handle) {
				started.add(handle);
			}
			else {
				refused.add((WorkflowAlreadyStartedException) value);
			}
		}
		assertThat(started).hasSize(1);
		UUID winner = started.get(0).runId();
		assertThat(refused).hasSize(starters - 1)
			.allSatisfy((ex) -> assertThat(ex.getExistingRunId()).isEqualTo(winner));
		// every racer's first task came to its commit (each is one insert with its run); only the
		// winner's wrote anything
		assertOnlyTheFirstRun();
		assertThat(hooks.threads).hasSize(starters);
		engine.client().handle("race").signal("go", "now");
		assertThat(engine.client().handle("race", String.class).result(Duration.ofSeconds(10))).endsWith(" now");
		Engines.assertReplays(engine, winner);
	}

	// ---- 5. a crash at the first task's commit --------------------------------------------------

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
		assertThat(engine.internal().cachedRuns()).isZero();
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

	// ---- 6. results handed over in this JVM ------------------------------------------------------

	/** Calls the result on a thread of its own, so that what that thread reads can be told apart. */
	private <T> Waiting<T> waitOn(Callable<T> result) throws Exception {
		CountDownLatch begun = new CountDownLatch(1);
		Thread[] thread = new Thread[1];
		Future<T> future = this.waiters.submit(() -> {
			thread[0] = Thread.currentThread();
			begun.countDown();
			return result.call();
		});
		assertThat(begun.await(10, TimeUnit.SECONDS)).isTrue();
		return new Waiting<>(thread[0], future);
	}

	private record Waiting<T>(Thread thread, Future<T> future) {

		T get() throws Exception {
			try {
				return this.future.get(30, TimeUnit.SECONDS);
			}
			catch (java.util.concurrent.ExecutionException ex) {
				if (ex.getCause() instanceof Exception cause) {
					throw cause;
				}
				throw ex;
			}
		}

	}

	/**
	 * Waits until one caller waits for a result, looking often: a waiter re-reads on its own every
	 * half second, and what it read before its first pause is what the handover tests look at.
	 */
	private static void awaitParked(WorkflowEngine engine) {
		await().pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(2))
			.until(() -> engine.internal().waiters().waiting() == 1);
	}

	/** The statements the thread prepared after the run's close was written (the closing commit). */
	private static List<StatementRecorder.Statement> readAfterClose(StatementRecorder recorder, Thread thread) {
		long closedAt = recorder.all()
			.stream()
			.filter((s) -> s.sql().contains("run_payload SET result"))
			.mapToLong(StatementRecorder.Statement::seq)
			.max()
			.orElseThrow();
		return recorder.of(thread).stream().filter((s) -> s.seq() > closedAt).toList();
	}

	private WorkflowEngine recordedWorker(StatementRecorder recorder) {
		return this.engines.start(this.engines.builder()
			.dataSource(recorder.dataSource())
			.register(Waiter.class, Chain.class)
			.registerActivities(new Steps()));
	}

	@Test
	void aResultWaitedOnTheOwningNodeIsHandedOverWithoutADatabaseRead() throws Exception {
		StatementRecorder recorder = new StatementRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = recordedWorker(recorder);
		WorkflowHandle<String> handle = engine.client().start(Waiter::run, "handed", StartOptions.withId("handover"));
		assertThat(engine.internal().holdsRun(handle.runId())).isTrue();

		Waiting<String> waiting = waitOn(() -> handle.result(Duration.ofSeconds(30)));
		awaitParked(engine);
		// the run is held here: its waiter does not read it before it closes
		assertThat(recorder.of(waiting.thread())).isEmpty();
		handle.signal("go", "over");
		assertThat(waiting.get()).isEqualTo("handed over");
		// the close handed the outcome over: nothing read back after it
		assertThat(readAfterClose(recorder, waiting.thread())).isEmpty();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aFailureIsHandedOverAsWorkflowFailedExceptionWithItsCause() throws Exception {
		StatementRecorder recorder = new StatementRecorder(TestDatabase.dataSource());
		WorkflowEngine engine = recordedWorker(recorder);
		WorkflowHandle<String> handle = engine.client().start(Waiter::run, "failing", StartOptions.withId("failed-over"));
		Waiting<String> waiting = waitOn(() -> handle.result(Duration.ofSeconds(30)));
		awaitParked(engine);
		assertThat(recorder.of(waiting.thread())).isEmpty();
		handle.signal("go", "fail");

		assertThatThrownBy(waiting::get).isInstanceOf(WorkflowFailedException.class).satisfies((ex) -> {
			WorkflowFailedException failed = (WorkflowFailedException) ex;
			assertThat(failed.getStatus()).isEqualTo(WorkflowStatus.FAILED);
			assertThat(failed.getRunId()).isEqualTo(handle.runId());
			assertThat(failed.getCause()).isInstanceOf(ApplicationFailure.class).hasMessageContaining("gave up on failing");
			assertThat(((ApplicationFailure) failed.getCause()).getType()).isEqualTo("GaveUp");
		});
		assertThat(readAfterClose(recorder, waiting.thread())).isEmpty();
		// read back from the database, the same
		assertThatThrownBy(() -> engine.client().handle("failed-over").result(Duration.ofSeconds(10)))
			.isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> assertThat(((ApplicationFailure) ex.getCause()).getType()).isEqualTo("GaveUp"));
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aResultWaitedOnTheOwningNodeFollowsAContinueAsNewChain() throws Exception {
		WorkflowEngine engine = worker(EngineHooks.NONE);
		WorkflowHandle<String> handle = engine.client().start(Chain::run, 1, StartOptions.withId("chain"));
		Waiting<String> waiting = waitOn(() -> handle.result(Duration.ofSeconds(30)));
		await().until(() -> engine.internal().waiters().waiting() == 1);
		List<UUID> runs = new ArrayList<>(List.of(handle.runId()));
		for (int round = 1; round <= 3; round++) {
			UUID current = runs.get(runs.size() - 1);
			engine.client().handle("chain").signal("go", "g" + round);
			if (round < 3) {
				await().until(() -> !engine.client().handle("chain").runId().equals(current));
				UUID next = engine.client().handle("chain").runId();
				runs.add(next);
				await().until(() -> engine.internal().holdsRun(next));
			}
		}
		assertThat(waiting.get()).isEqualTo("done 3 g3");
		assertThat(runs).hasSize(3).doesNotHaveDuplicates();
		for (UUID run : runs) {
			Engines.assertReplays(engine, run);
		}
	}

	@Test
	void aResultWaitedOnAnotherNodeIsReadFromTheDatabase() throws Exception {
		WorkflowEngine worker = worker(EngineHooks.NONE);
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false));
		WorkflowHandle<String> handle = client.client().start(Waiter::run, "remote", StartOptions.withId("remote"));
		await().until(() -> worker.internal().holdsRun(handle.runId()));
		assertThat(client.internal().holdsRun(handle.runId())).isFalse();

		Waiting<String> waiting = waitOn(() -> handle.result(Duration.ofSeconds(30)));
		await().until(() -> client.internal().waiters().waiting() == 1);
		handle.signal("go", "close");
		assertThat(waiting.get()).isEqualTo("remote close");

		// and a failure closed on another node
		WorkflowHandle<String> failing = client.client().start(Waiter::run, "remote", StartOptions.withId("remote-f"));
		Waiting<String> failed = waitOn(() -> failing.result(Duration.ofSeconds(30)));
		await().until(() -> client.internal().waiters().waiting() == 1);
		failing.signal("go", "fail");
		assertThatThrownBy(failed::get).isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> assertThat(((ApplicationFailure) ex.getCause()).getType()).isEqualTo("GaveUp"));
		Engines.assertReplays(worker, handle.runId());
		Engines.assertReplays(worker, failing.runId());
	}

	@Test
	void aResultWaitedOnTheOwningNodeStillTimesOut() {
		WorkflowEngine engine = worker(EngineHooks.NONE);
		WorkflowHandle<String> handle = engine.client().start(Waiter::run, "slow", StartOptions.withId("slow"));
		assertThat(engine.internal().holdsRun(handle.runId())).isTrue();
		assertThatThrownBy(() -> handle.result(Duration.ofMillis(1)))
			.isInstanceOf(WorkflowHandle.WorkflowTimeoutException.class);
		handle.signal("go", "late");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("slow late");
		Engines.assertReplays(engine, handle.runId());
	}

	// ---- listeners around an eager first task ----------------------------------------------------

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

	// ---- a start inside the caller's own transaction ---------------------------------------------

	private TransactionTemplate callersTransaction() {
		return new TransactionTemplate(new DataSourceTransactionManager(TestDatabase.dataSource()));
	}

	@Test
	void aStartInACallersTransactionThatRollsBackRunsNothing() {
		Steps steps = new Steps();
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(OneStep.class).registerActivities(steps));
		callersTransaction().executeWithoutResult((status) -> {
			engine.client().start(OneStep::run, "phantom", StartOptions.withId("rolled-back"));
			status.setRollbackOnly();
		});
		assertNoRows("workflow_run", "history", "activity");
		// nothing may happen: wait a little to see that nothing does
		await("no step run").during(Duration.ofMillis(500))
			.atMost(Duration.ofSeconds(2))
			.until(() -> steps.calls.get() == 0);
		assertThat(engine.internal().cachedRuns()).isZero();
	}

	@Test
	void aStartInACallersTransactionRunsItsFirstStepOnceAfterTheCommit() {
		Steps steps = new Steps();
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(OneStep.class).registerActivities(steps));
		WorkflowHandle<String> handle = callersTransaction().execute((status) -> {
			WorkflowHandle<String> started = engine.client()
				.start(OneStep::run, "joined", StartOptions.withId("joined"));
			// the caller's transaction goes on a while: its step must not run before it commits
			await("no step run").during(Duration.ofMillis(500))
				.atMost(Duration.ofSeconds(2))
				.until(() -> steps.calls.get() == 0);
			return started;
		});
		// the engine clock does not move: a lost attempt would wait for its retry forever
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("step joined");
		assertThat(steps.calls).hasValue(1);
		Engines.assertReplays(engine, handle.runId());
	}

}
