package dev.durable.workflow.activity;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.CancellationScope;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.TimeoutFailure;
import dev.durable.workflow.failure.TimeoutType;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Activities: results, retries with persisted attempts, timeouts, non-retryable failures,
 * heartbeats.
 */
class ActivityTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Activity implementations whose behaviour each test sets. */
	@Activity
	public interface Steps {

		String work(String input, int times);

		@ActivityMethod(maxAttempts = 3, initialInterval = "PT10S")
		String flaky(String input);

		@ActivityMethod(nonRetryableErrorTypes = "java.lang.IllegalArgumentException", initialInterval = "PT1S")
		String strict(String input);

		@ActivityMethod(startToCloseTimeout = "PT30S", maxAttempts = 2, initialInterval = "PT1S")
		String slow(String input);

		@ActivityMethod(scheduleToCloseTimeout = "PT25S", initialInterval = "PT10S")
		String deadline(String input);

		@ActivityMethod(initialInterval = "PT1S", maxAttempts = 3)
		int resumable(int upTo);

		@ActivityMethod(heartbeatTimeout = "PT10S", maxAttempts = 1)
		String silent(String input);

		/** Waits; when canceled, heartbeats once more before it returns. */
		String stubborn(String input);

	}

	public static class StepsImpl implements Steps {

		final AtomicInteger flakyCalls = new AtomicInteger();

		final List<Integer> attempts = new CopyOnWriteArrayList<>();

		final List<Integer> resumedFrom = new CopyOnWriteArrayList<>();

		final AtomicInteger slowCalls = new AtomicInteger();

		final AtomicInteger slowInterrupted = new AtomicInteger();

		final AtomicInteger lateHeartbeats = new AtomicInteger();

		final AtomicInteger deadlineCalls = new AtomicInteger();

		volatile CountDownLatch slowRelease = new CountDownLatch(1);

		@Override
		public String work(String input, int times) {
			return input.repeat(times);
		}

		@Override
		public String flaky(String input) {
			this.attempts.add(ActivityContext.current().info().attempt());
			if (this.flakyCalls.incrementAndGet() < 3) {
				throw new IllegalStateException("flaky failure " + this.flakyCalls.get());
			}
			return input + " after " + this.flakyCalls.get();
		}

		@Override
		public String strict(String input) {
			throw new IllegalArgumentException("bad input " + input);
		}

		@Override
		public String slow(String input) {
			this.slowCalls.incrementAndGet();
			try {
				this.slowRelease.await();
			}
			catch (InterruptedException ex) {
				this.slowInterrupted.incrementAndGet();
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted");
			}
			return input;
		}

		@Override
		public String stubborn(String input) {
			this.slowCalls.incrementAndGet();
			try {
				this.slowRelease.await();
			}
			catch (InterruptedException ex) {
				ActivityContext.current().heartbeat("canceled, yet still here");
				this.lateHeartbeats.incrementAndGet();
			}
			return input;
		}

		@Override
		public String deadline(String input) {
			this.deadlineCalls.incrementAndGet();
			throw new IllegalStateException("always fails");
		}

		@Override
		public String silent(String input) {
			ActivityContext.current().heartbeat("started");
			try {
				this.slowRelease.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return input;
		}

		@Override
		public int resumable(int upTo) {
			Integer from = ActivityContext.current().heartbeatDetails(Integer.class);
			this.resumedFrom.add((from != null) ? from : 0);
			for (int i = (from != null) ? from : 0; i < upTo; i++) {
				ActivityContext.current().heartbeat(i + 1);
				if (i == 2 && from == null) {
					throw new IllegalStateException("crash in the middle");
				}
			}
			return upTo;
		}

	}

	/** Calls the activity named by the input. */
	@Workflow("activity-caller")
	public static class CallerWorkflow {

		private final Steps steps;

		public CallerWorkflow(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String which) {
			return switch (which) {
				case "work" -> this.steps.work("ab", 3) + "|" + this.steps.work("c", 2);
				case "flaky" -> this.steps.flaky("ok");
				case "strict" -> this.steps.strict("x");
				case "slow" -> this.steps.slow("done");
				case "canceled" -> canceledAfterFiveSeconds(() -> this.steps.slow("never"));
				case "stubborn" -> canceledAfterFiveSeconds(() -> this.steps.stubborn("never"));
				case "retry-canceled" -> canceledAfterFiveSeconds(() -> this.steps.deadline("x"));
				case "deadline" -> this.steps.deadline("x");
				case "resumable" -> String.valueOf(this.steps.resumable(5));
				case "silent" -> this.steps.silent("x");
				case "caught" -> {
					try {
						yield this.steps.strict("y");
					}
					catch (ActivityFailure failure) {
						ApplicationFailure cause = (ApplicationFailure) failure.getCause();
						yield "caught " + cause.getType() + ": " + cause.getMessage();
					}
				}
				default -> throw ApplicationFailure.newNonRetryableFailure("unknown " + which, "BadRequest");
			};
		}

		/**
		 * Runs the activity in a scope canceled five seconds in; the run stays open an
		 * hour after.
		 */
		private String canceledAfterFiveSeconds(Runnable activity) {
			CancellationScope scope = Workflows.newCancellationScope(activity);
			Workflows.async(() -> {
				Workflows.sleep(Duration.ofSeconds(5));
				scope.cancel("enough");
			});
			try {
				scope.run();
				return "finished";
			}
			catch (ActivityFailure ex) {
				Workflows.sleep(Duration.ofHours(1));
				return "canceled: " + ex.getCause().getMessage();
			}
		}

	}

	private final StepsImpl impl = new StepsImpl();

	private WorkflowEngine engine() {
		return this.engines.start(this.engines.builder().register(CallerWorkflow.class).registerActivities(this.impl));
	}

	private WorkflowHandle<String> start(WorkflowEngine engine, String which) {
		return engine.client().start(CallerWorkflow::run, which, StartOptions.withId("act-" + which));
	}

	@Test
	void activityResultsAreRecordedAndReplayed() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "work");
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("ababab|cc");
		Engines.assertReplays(engine, handle.runId());
		assertThat(this.engines.count("activity")).isZero();
	}

	@Test
	void failedAttemptsArePersistedAndRetriedWithBackoff() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "flaky");
		await().until(() -> attemptOf(handle) == 2);
		PendingActivity pending = handle.describe().pendingActivities().get(0);
		assertThat(pending.activityType()).isEqualTo("flaky");
		assertThat(pending.lastFailure()).contains("flaky failure 1");
		assertThat(pending.nextAttemptTime()).isEqualTo(this.engines.clock.instant().plusSeconds(10));
		Integer storedAttempt = this.engines.jdbc()
			.queryForObject("SELECT attempt FROM " + this.engines.schema + ".activity", Integer.class);
		assertThat(storedAttempt).isEqualTo(2);
		this.engines.clock.advance(Duration.ofSeconds(10));
		await().until(() -> attemptOf(handle) == 3);
		assertThat(handle.describe().pendingActivities().get(0).nextAttemptTime())
			.isEqualTo(this.engines.clock.instant().plusSeconds(20));
		this.engines.clock.advance(Duration.ofSeconds(20));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("ok after 3");
		assertThat(this.impl.attempts).containsExactly(1, 2, 3);
		Engines.assertReplays(engine, handle.runId());
	}

	private int attemptOf(WorkflowHandle<?> handle) {
		List<PendingActivity> pending = handle.describe().pendingActivities();
		return pending.isEmpty() ? 0 : pending.get(0).attempt();
	}

	@Test
	void nonRetryableTypeFailsAtOnceWithTheCauseIntact() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "strict");
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.satisfies((ex) -> {
				WorkflowFailedException failed = (WorkflowFailedException) ex;
				assertThat(failed.getStatus()).isEqualTo(WorkflowStatus.FAILED);
				assertThat(failed.getCause()).isInstanceOf(ActivityFailure.class);
				ActivityFailure activityFailure = (ActivityFailure) failed.getCause();
				assertThat(activityFailure.getActivityType()).isEqualTo("strict");
				assertThat(activityFailure.getAttempt()).isEqualTo(1);
				ApplicationFailure cause = (ApplicationFailure) activityFailure.getCause();
				assertThat(cause.getType()).isEqualTo("java.lang.IllegalArgumentException");
				assertThat(cause.getMessage()).isEqualTo("bad input x");
			});
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void workflowCanCatchAnActivityFailure() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "caught");
		assertThat(handle.result(Duration.ofSeconds(10)))
			.isEqualTo("caught java.lang.IllegalArgumentException: bad input y");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void startToCloseTimeoutFailsTheAttemptAndRetries() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "slow");
		await().until(() -> this.impl.slowCalls.get() == 1);
		// the first attempt of an inline activity writes no row: the history says it is
		// awaited
		assertThat(this.engines.count("activity")).isZero();
		assertThat(handle.describe().pendingActivities()).singleElement()
			.satisfies((pending) -> assertThat(pending.attempt()).isEqualTo(1))
			.satisfies((pending) -> assertThat(pending.activityType()).isEqualTo("slow"))
			.satisfies((pending) -> assertThat(pending.lastFailure()).isNull());
		this.engines.clock.advance(Duration.ofSeconds(30));
		await().until(() -> attemptOf(handle) == 2);
		assertThat(handle.describe().pendingActivities().get(0).lastFailure()).contains("START_TO_CLOSE");
		this.engines.clock.advance(Duration.ofSeconds(1));
		await().until(() -> this.impl.slowCalls.get() == 2);
		this.engines.clock.advance(Duration.ofSeconds(30));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.rootCause()
			.isInstanceOf(TimeoutFailure.class)
			.satisfies(
					(ex) -> assertThat(((TimeoutFailure) ex).getTimeoutType()).isEqualTo(TimeoutType.START_TO_CLOSE));
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aCanceledActivityStopsItsRunningAttempt() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "canceled");
		await().until(() -> this.impl.slowCalls.get() == 1);
		this.engines.clock.advance(Duration.ofSeconds(5));
		// the attempt has no row; the commit that canceled it interrupts it, the run
		// going on
		await().until(() -> this.impl.slowInterrupted.get() == 1);
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(handle.describe().pendingActivities()).isEmpty();
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("canceled: enough");
		assertThat(this.impl.slowCalls).hasValue(1);
		assertThat(this.engines.count("activity")).isZero();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aCanceledActivityWaitingForItsRetryIsNotRetried() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "retry-canceled");
		await().until(() -> attemptOf(handle) == 2); // the retry is due 10 s after the
														// failure
		this.engines.clock.advance(Duration.ofSeconds(5));
		await().until(() -> handle.describe().pendingActivities().isEmpty());
		this.engines.clock.advance(Duration.ofSeconds(10));
		await().during(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(5))
			.until(() -> this.impl.deadlineCalls.get() == 1);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("canceled: enough");
		assertThat(this.impl.deadlineCalls).hasValue(1);
		assertThat(this.engines.count("activity")).isZero();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aHeartbeatAfterTheCancelWritesNoRow() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "stubborn");
		await().until(() -> this.impl.slowCalls.get() == 1);
		this.engines.clock.advance(Duration.ofSeconds(5));
		await().until(() -> this.impl.lateHeartbeats.get() == 1);
		// a row written now would outlive the activity: nothing deletes it before the run
		// closes
		assertThat(this.engines.count("activity")).isZero();
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		this.engines.clock.advance(Duration.ofHours(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("canceled: enough");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void scheduleToCloseTimeoutStopsRetries() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "deadline");
		await().until(() -> attemptOf(handle) == 2);
		this.engines.clock.advance(Duration.ofSeconds(10));
		await().until(() -> attemptOf(handle) == 3 || handle.describe().status().isClosed());
		this.engines.clock.advance(Duration.ofSeconds(30));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.cause()
			.isInstanceOf(ActivityFailure.class)
			.cause()
			.isInstanceOf(TimeoutFailure.class)
			.satisfies(
					(ex) -> assertThat(((TimeoutFailure) ex).getTimeoutType()).isEqualTo(TimeoutType.SCHEDULE_TO_CLOSE))
			.cause()
			.hasMessage("always fails");
		assertThat(this.engines.count("activity")).isZero();
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void heartbeatTimeoutFailsAnAttemptThatStopsHeartbeating() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "silent");
		await().until(() -> this.engines.count("activity") == 1 && attemptOf(handle) == 1);
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		this.engines.clock.advance(Duration.ofSeconds(6));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(10))).isInstanceOf(WorkflowFailedException.class)
			.cause()
			.isInstanceOf(ActivityFailure.class)
			.cause()
			.isInstanceOf(TimeoutFailure.class)
			.satisfies((ex) -> assertThat(((TimeoutFailure) ex).getTimeoutType()).isEqualTo(TimeoutType.HEARTBEAT));
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void resultAsyncCompletes() throws Exception {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "work");
		assertThat(handle.resultAsync().get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("ababab|cc");
	}

	@Test
	void heartbeatDetailsResumeTheNextAttempt() {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> handle = start(engine, "resumable");
		await().until(() -> attemptOf(handle) == 2);
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("5");
		assertThat(this.impl.resumedFrom).containsExactly(0, 3);
	}

	@Test
	void activityProxyOutsideWorkflowCodeRunsDirectly() {
		WorkflowEngine engine = engine();
		assertThat(engine.activityProxy(Steps.class).work("x", 2)).isEqualTo("xx");
		assertThat(this.engines.count("workflow_run")).isZero();
	}

}
