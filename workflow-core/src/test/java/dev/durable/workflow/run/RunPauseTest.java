package dev.durable.workflow.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowDescription;
import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.batch.BatchRequest;
import dev.durable.workflow.client.batch.BatchState;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.testsupport.EngineHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Pausing a run: it takes no workflow task and starts no activity attempt, on any node,
 * until unpaused; what arrives meanwhile (signals, updates, due timers, the outcome of an
 * attempt that was running) waits and is taken up at the unpause; queries are answered;
 * the pause survives a restart of the node; a task that began before the pause does not
 * commit after it.
 */
class RunPauseTest {

	private final Engines engines = new Engines();

	@BeforeEach
	void reset() {
		Steps.CALLS.clear();
		Steps.failuresLeft = 0;
		Steps.block = null;
	}

	@AfterEach
	void close() {
		CountDownLatch latch = Steps.block;
		if (latch != null) {
			latch.countDown();
		}
		this.engines.close();
	}

	@Activity
	public static class Steps {

		static final Map<String, List<Integer>> CALLS = new ConcurrentHashMap<>();

		static volatile int failuresLeft;

		static volatile CountDownLatch block;

		@ActivityMethod(initialInterval = "PT10S")
		public String ship(String order) {
			CALLS.computeIfAbsent(order, (k) -> new CopyOnWriteArrayList<>())
				.add(ActivityContext.current().info().attempt());
			CountDownLatch latch = block;
			if (latch != null) {
				try {
					latch.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			if (failuresLeft > 0) {
				failuresLeft--;
				throw new IllegalStateException("carrier down");
			}
			return "shipped " + order;
		}

	}

	/** Collects notes; ships once approved, or by itself after a day. */
	@Workflow("parcel")
	public static class Parcel {

		private final Steps steps;

		private final List<String> notes = new CopyOnWriteArrayList<>();

		private boolean approved;

		private int priority = 1;

		public Parcel(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String order) {
			Workflows.await(Duration.ofDays(1), () -> this.approved);
			return this.steps.ship(order) + " at " + this.priority + " notes " + this.notes;
		}

		@SignalMethod
		public void note(String note) {
			this.notes.add(note);
		}

		@SignalMethod
		public void approve() {
			this.approved = true;
		}

		@UpdateMethod
		public int prioritize(int priority) {
			this.priority = priority;
			return priority;
		}

		@QueryMethod
		public List<String> notes() {
			return this.notes;
		}

	}

	/** Runs only on the nodes that serve the "dock" task queue. */
	@Activity
	public interface Dock {

		@ActivityMethod(taskQueue = "dock")
		String load(String parcel);

	}

	public static class DockWorker implements Dock {

		static final List<String> LOADED = new CopyOnWriteArrayList<>();

		@Override
		public String load(String parcel) {
			LOADED.add(parcel);
			return "loaded " + parcel;
		}

	}

	@Workflow("loading")
	public static class Loading {

		private final Dock dock;

		public Loading(Dock dock) {
			this.dock = dock;
		}

		@WorkflowRun
		public String run(String parcel) {
			return this.dock.load(parcel);
		}

	}

	private WorkflowEngine node() {
		return node(EngineHooks.NONE);
	}

	private WorkflowEngine node(EngineHooks hooks) {
		return this.engines
			.start(this.engines.builder().register(Parcel.class).registerActivities(new Steps()).hooks(hooks));
	}

	private int historyRows(UUID runId) {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".history WHERE run_id = ?", Integer.class,
					runId);
	}

	/** The node has nothing left to do: every task it could run has run. */
	private static void settled(WorkflowEngine engine) {
		await().until(() -> engine.quiescence().isIdle() && !engine.quiescence().anyDue(engine.now()));
	}

	private static List<String> events(WorkflowHandle<?> handle) {
		return handle.history().stream().map((event) -> event.type()).toList();
	}

	@Test
	void signalsUpdatesAndTimersWaitWhileQueriesAreAnswered() throws Exception {
		WorkflowEngine engine = node();
		WorkflowHandle<String> parcel = engine.client().start(Parcel::run, "p-1", StartOptions.withId("parcel-1"));
		await().until(() -> events(parcel).contains("TIMER_STARTED"));

		assertThat(parcel.pause("carrier strike")).isTrue();
		assertThat(parcel.pause("again")).as("a second pause changes nothing").isFalse();
		WorkflowDescription paused = parcel.describe();
		assertThat(paused.paused()).isTrue();
		assertThat(paused.pausedAt()).isEqualTo(engine.now());
		assertThat(paused.pauseReason()).isEqualTo("carrier strike");
		int before = historyRows(parcel.runId());

		parcel.signal(Parcel::note, "fragile");
		CompletableFuture<Integer> update = CompletableFuture.supplyAsync(() -> parcel.update(Parcel::prioritize, 3));
		this.engines.clock.advance(Duration.ofDays(2)); // the one-day timer comes due
		settled(engine);
		assertThat(historyRows(parcel.runId())).as("no workflow task while paused").isEqualTo(before);
		assertThat(update).isNotDone();
		assertThat(Steps.CALLS).isEmpty();
		assertThat(parcel.query(Parcel::notes)).as("queries are answered").isEmpty();
		assertThat(parcel.describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		assertThat(parcel.unpause()).isTrue();
		assertThat(parcel.unpause()).as("unpausing a run that is not paused changes nothing").isFalse();
		assertThat(update.get(20, TimeUnit.SECONDS)).isEqualTo(3);
		assertThat(parcel.result(Duration.ofSeconds(20))).isEqualTo("shipped p-1 at 3 notes [fragile]");
		assertThat(parcel.describe().paused()).isFalse();
		Engines.assertReplays(engine, parcel.runId());
	}

	@Test
	void aPauseSurvivesARestartOfTheNode() {
		WorkflowEngine first = node();
		WorkflowHandle<String> parcel = first.client().start(Parcel::run, "p-2", StartOptions.withId("parcel-2"));
		await().until(() -> events(parcel).contains("TIMER_STARTED"));
		parcel.pause(null);
		first.shutdown();

		WorkflowEngine second = node();
		parcel.signal(Parcel::approve);
		WorkflowHandle<String> again = second.client().handle("parcel-2", String.class);
		this.engines.clock.advance(Duration.ofSeconds(5));
		settled(second);
		assertThat(again.describe().paused()).isTrue();
		assertThat(again.describe().pauseReason()).isNull();
		assertThat(events(again)).doesNotContain("SIGNAL_RECEIVED");
		assertThat(Steps.CALLS).isEmpty();

		again.unpause();
		assertThat(again.result(Duration.ofSeconds(20))).isEqualTo("shipped p-2 at 1 notes []");
	}

	@Test
	void aRunningAttemptFinishesAndItsOutcomeWaitsAndNoRetryStartsWhilePaused() {
		WorkflowEngine engine = node();
		Steps.block = new CountDownLatch(1);
		Steps.failuresLeft = 1;
		WorkflowHandle<String> parcel = engine.client().start(Parcel::run, "p-3", StartOptions.withId("parcel-3"));
		parcel.signal(Parcel::approve);
		await().until(() -> Steps.CALLS.containsKey("p-3"));

		parcel.pause("hold the parcel");
		Steps.block.countDown(); // the running attempt fails; its retry is due in 10 s
		await().until(() -> !engine.quiescence().anyActivityInFlight());
		this.engines.clock.advance(Duration.ofMinutes(5));
		settled(engine);
		assertThat(Steps.CALLS.get("p-3")).as("no retry while paused").containsExactly(1);

		parcel.unpause();
		assertThat(parcel.result(Duration.ofSeconds(20))).isEqualTo("shipped p-3 at 1 notes []");
		assertThat(Steps.CALLS.get("p-3")).containsExactly(1, 2);
	}

	@Test
	void theOutcomeOfAnAttemptThatEndsWhilePausedIsRecordedAtTheUnpause() {
		WorkflowEngine engine = node();
		Steps.block = new CountDownLatch(1);
		WorkflowHandle<String> parcel = engine.client().start(Parcel::run, "p-4", StartOptions.withId("parcel-4"));
		parcel.signal(Parcel::approve);
		await().until(() -> Steps.CALLS.containsKey("p-4"));
		parcel.pause(null);
		int before = historyRows(parcel.runId());

		Steps.block.countDown(); // the attempt completes while the run is paused
		await().until(() -> !engine.quiescence().anyActivityInFlight());
		settled(engine);
		assertThat(historyRows(parcel.runId())).isEqualTo(before);
		assertThat(parcel.describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		parcel.unpause();
		assertThat(parcel.result(Duration.ofSeconds(20))).isEqualTo("shipped p-4 at 1 notes []");
		assertThat(Steps.CALLS.get("p-4")).as("the attempt did not run again").containsExactly(1);
	}

	/** Holds the commit of the next task of one run until told to proceed. */
	private static final class HeldCommit implements EngineHooks {

		final CountDownLatch inCommit = new CountDownLatch(1);

		final CountDownLatch proceed = new CountDownLatch(1);

		volatile String held;

		@Override
		public void beforeTaskCommit(UUID runId) {
			if (runId.toString().equals(this.held)) {
				this.held = null;
				this.inCommit.countDown();
				try {
					this.proceed.await(20, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

	@Test
	void aTaskThatBeganBeforeThePauseDoesNotCommitAfterIt() throws Exception {
		HeldCommit commit = new HeldCommit();
		WorkflowEngine engine = node(commit);
		WorkflowHandle<String> parcel = engine.client().start(Parcel::run, "p-5", StartOptions.withId("parcel-5"));
		await().until(() -> events(parcel).contains("TIMER_STARTED"));
		commit.held = parcel.runId().toString();
		parcel.signal(Parcel::note, "before the pause");
		assertThat(commit.inCommit.await(20, TimeUnit.SECONDS)).isTrue();

		// the signal's task is about to commit: the pause lands first
		parcel.pause("now");
		commit.proceed.countDown();
		settled(engine);
		assertThat(events(parcel)).as("the task's commit failed its compare-and-set").doesNotContain("SIGNAL_RECEIVED");

		parcel.unpause();
		await().until(() -> events(parcel).contains("SIGNAL_RECEIVED"));
		assertThat(parcel.query(Parcel::notes)).containsExactly("before the pause");
	}

	@Test
	void aTaskCommittedInSeveralStatementsDoesNotCommitAfterThePauseEither() throws Exception {
		HeldCommit commit = new HeldCommit();
		WorkflowEngine engine = node(commit);
		WorkflowHandle<String> parcel = engine.client().start(Parcel::run, "p-8", StartOptions.withId("parcel-8"));
		await().until(() -> events(parcel).contains("TIMER_STARTED"));
		commit.held = parcel.runId().toString();
		// an update's task commits its outcome beside the run row: the multi-statement
		// path
		CompletableFuture<Integer> update = CompletableFuture.supplyAsync(() -> parcel.update(Parcel::prioritize, 4));
		assertThat(commit.inCommit.await(20, TimeUnit.SECONDS)).isTrue();

		parcel.pause("now");
		commit.proceed.countDown();
		settled(engine);
		assertThat(events(parcel)).as("the task's commit failed its compare-and-set").doesNotContain("UPDATE_ACCEPTED");
		assertThat(update).isNotDone();

		parcel.unpause();
		assertThat(update.get(20, TimeUnit.SECONDS)).isEqualTo(4);
	}

	@Test
	void pausedRunsAreListedAndABatchPausesAndUnpausesByFilter() {
		WorkflowEngine engine = node();
		List<WorkflowHandle<String>> parcels = List.of(
				engine.client().start(Parcel::run, "a", StartOptions.withId("batch-a")),
				engine.client().start(Parcel::run, "b", StartOptions.withId("batch-b")));
		WorkflowHandle<String> other = engine.client().start(Parcel::run, "c", StartOptions.withId("other-c"));
		await().until(() -> this.engines.count("timer") == 3);

		String batch = engine.client()
			.startBatch(
					BatchRequest.pause(WorkflowFilter.ofType("parcel").workflowIdPrefix("batch-"), "stop the batch"))
			.batchId();
		await().until(() -> engine.client().describeBatch(batch).state() == BatchState.COMPLETED);
		assertThat(parcels).allMatch((parcel) -> parcel.describe().paused());
		assertThat(other.describe().paused()).isFalse();
		assertThat(engine.client().list(WorkflowFilter.all().paused(true), 10, null).executions())
			.extracting(WorkflowExecution::workflowId)
			.containsExactlyInAnyOrder("batch-a", "batch-b");
		assertThat(engine.client().list(WorkflowFilter.ofType("parcel").paused(false), 10, null).executions())
			.extracting(WorkflowExecution::workflowId)
			.containsExactly("other-c");
		assertThat(engine.client().list(WorkflowFilter.all(), 10, null).executions())
			.filteredOn(WorkflowExecution::paused)
			.hasSize(2);
		assertThat(engine.stats(Duration.ofMinutes(5)).backlog().paused()).isEqualTo(2);

		String unpause = engine.client().startBatch(BatchRequest.unpause(WorkflowFilter.all().paused(true))).batchId();
		await().until(() -> engine.client().describeBatch(unpause).state() == BatchState.COMPLETED);
		assertThat(parcels).noneMatch((parcel) -> parcel.describe().paused());
		assertThat(engine.stats(Duration.ofMinutes(5)).backlog().paused()).isZero();
	}

	@Test
	void aClosedRunCannotBePausedAndATerminateClosesAPausedRun() {
		WorkflowEngine engine = node();
		WorkflowHandle<String> parcel = engine.client().start(Parcel::run, "p-6", StartOptions.withId("parcel-6"));
		await().until(() -> events(parcel).contains("TIMER_STARTED"));
		parcel.pause("wait");
		parcel.terminate("gone");
		assertThat(parcel.describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
		assertThatThrownBy(() -> parcel.pause("late")).isInstanceOf(WorkflowClosedException.class);
		assertThatThrownBy(parcel::unpause).isInstanceOf(WorkflowClosedException.class);
	}

	@Test
	void aTaskQueueAttemptOfAPausedRunIsNotClaimed() {
		DockWorker.LOADED.clear();
		WorkflowEngine engine = this.engines.start(this.engines.builder().register(Loading.class));
		WorkflowHandle<String> loading = engine.client().start(Loading::run, "p-7", StartOptions.withId("loading-7"));
		await().until(() -> this.engines.count("activity") == 1);
		loading.pause("dock closed");

		WorkflowEngine dock = this.engines.start(this.engines.builder()
			.runWorkflows(false)
			.activityTaskQueues("dock")
			.registerActivities(new DockWorker()));
		this.engines.clock.advance(Duration.ofMinutes(5));
		settled(dock);
		settled(engine);
		assertThat(DockWorker.LOADED).as("no attempt while paused").isEmpty();

		loading.unpause();
		assertThat(loading.result(Duration.ofSeconds(20))).isEqualTo("loaded p-7");
		assertThat(DockWorker.LOADED).containsExactly("p-7");
	}

}
