package dev.durable.workflow.run;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.ActivityNotPendingException;
import dev.durable.workflow.client.ActivityOptionsUpdate;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClosedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.engine.WorkflowInterceptor;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Operations on a pending activity, inline and on a task queue: a pause holds back its
 * next attempt (enforced where attempts are claimed or launched) while an attempt already
 * running runs on, sees the pause at its heartbeat and has its outcome counted; an
 * unpause lets it go on; a reset starts it over at attempt 1 at once; new options apply
 * to the attempts to come; a retry policy may pause an activity whose attempts are
 * exhausted instead of failing it. Each operation is recorded in the run's history, which
 * still replays; describe and waitingOn show the pause.
 */
class ActivityOperationsTest {

	private static final String QUEUE = "ops";

	private final Engines engines = new Engines();

	@BeforeEach
	void clear() {
		Steps.ATTEMPTS.clear();
		Steps.DETAILS.clear();
		Steps.succeedFrom = Integer.MAX_VALUE;
		Steps.stopWhenPaused = false;
	}

	@AfterEach
	void close() {
		Steps.stopWhenPaused = false;
		CountDownLatch latch = Steps.block;
		Steps.block = null;
		if (latch != null) {
			latch.countDown();
		}
		this.engines.close();
	}

	/** What the activities do, shared by the inline and the task-queue ones. */
	static final class Steps {

		static final Map<String, List<Integer>> ATTEMPTS = new ConcurrentHashMap<>();

		/** The heartbeat details each attempt started with. */
		static final List<Object> DETAILS = new CopyOnWriteArrayList<>();

		/** The first attempt that succeeds. */
		static volatile int succeedFrom;

		/** The attempt heartbeats until it sees a pause, then fails. */
		static volatile boolean stopWhenPaused;

		/** When set, an attempt waits for it first (until the sweep times it out). */
		static volatile CountDownLatch block;

		static String call(String name) {
			ActivityContext context = ActivityContext.current();
			int attempt = context.info().attempt();
			ATTEMPTS.computeIfAbsent(name, (k) -> new CopyOnWriteArrayList<>()).add(attempt);
			DETAILS.add(String.valueOf(context.heartbeatDetails(String.class)));
			context.heartbeat("progress of attempt " + attempt);
			CountDownLatch latch = block;
			if (latch != null) {
				try {
					latch.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw ApplicationFailure.newFailure("interrupted", "Interrupted");
				}
			}
			while (stopWhenPaused) {
				context.heartbeat("progress of attempt " + attempt);
				if (context.isPauseRequested()) {
					throw ApplicationFailure.newFailure("stopped: the activity is paused", "Paused");
				}
				try {
					Thread.sleep(20);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw ApplicationFailure.newFailure("interrupted", "Interrupted");
				}
			}
			if (attempt < succeedFrom && !name.endsWith("-ok")) {
				throw ApplicationFailure.newFailure("attempt " + attempt + " failed", "Flaky");
			}
			return name + " done at attempt " + attempt;
		}

	}

	@Activity
	public interface Inline {

		@ActivityMethod(initialInterval = "PT10S", backoffCoefficient = 1.0)
		String work(String name);

		@ActivityMethod(initialInterval = "PT10S", backoffCoefficient = 1.0, maxAttempts = 2)
		String limited(String name);

		@ActivityMethod(initialInterval = "PT10S", backoffCoefficient = 1.0, maxAttempts = 2, pauseWhenExhausted = true)
		String patient(String name);

	}

	@Activity(namePrefix = "queued-")
	public interface Queued {

		@ActivityMethod(initialInterval = "PT10S", backoffCoefficient = 1.0, taskQueue = QUEUE)
		String work(String name);

		@ActivityMethod(initialInterval = "PT10S", backoffCoefficient = 1.0, maxAttempts = 2, taskQueue = QUEUE)
		String limited(String name);

		@ActivityMethod(initialInterval = "PT10S", backoffCoefficient = 1.0, maxAttempts = 2, pauseWhenExhausted = true,
				taskQueue = QUEUE)
		String patient(String name);

		@ActivityMethod(startToCloseTimeout = "PT2S", maxAttempts = 1, pauseWhenExhausted = true, taskQueue = QUEUE)
		String slow(String name);

	}

	public static class InlineSteps implements Inline {

		@Override
		public String work(String name) {
			return Steps.call(name);
		}

		@Override
		public String limited(String name) {
			return Steps.call(name);
		}

		@Override
		public String patient(String name) {
			return Steps.call(name);
		}

	}

	public static class QueuedSteps implements Queued {

		@Override
		public String work(String name) {
			return Steps.call(name);
		}

		@Override
		public String limited(String name) {
			return Steps.call(name);
		}

		@Override
		public String patient(String name) {
			return Steps.call(name);
		}

		@Override
		public String slow(String name) {
			return Steps.call(name);
		}

	}

	/**
	 * Input: "queued:" or "inline:" then the activity method (work, limited, patient; or
	 * two: an inline activity that completes, then work), then ":" and a name.
	 */
	@Workflow("operated")
	public static class Operated {

		private final Inline inline;

		private final Queued queued;

		public Operated(Inline inline, Queued queued) {
			this.inline = inline;
			this.queued = queued;
		}

		@WorkflowRun
		public String run(String input) {
			String[] parts = input.split(":");
			boolean onQueue = parts[0].equals("queued");
			String name = parts[2];
			return switch (parts[1]) {
				case "limited" -> onQueue ? this.queued.limited(name) : this.inline.limited(name);
				case "patient" -> onQueue ? this.queued.patient(name) : this.inline.patient(name);
				case "slow" -> this.queued.slow(name);
				case "two" -> this.inline.work(name + "-ok") + ", " + this.inline.work(name);
				case "local" ->
					Workflows
						.localActivities(Inline.class,
								ActivityOptions.builder()
									.retryPolicy(RetryPolicy.builder()
										.initialInterval(Duration.ofMillis(1))
										.maximumAttempts(2)
										.pauseWhenExhausted()
										.build())
									.build())
						.work(name);
				default -> onQueue ? this.queued.work(name) : this.inline.work(name);
			};
		}

	}

	private WorkflowEngine node() {
		return this.engines.start(this.engines.builder()
			.register(Operated.class)
			.activityTaskQueues(QUEUE)
			.registerActivities(new InlineSteps(), new QueuedSteps()));
	}

	private WorkflowHandle<String> start(WorkflowEngine engine, boolean queued, String method, String name) {
		return engine.client()
			.start(Operated::run, (queued ? "queued:" : "inline:") + method + ":" + name, StartOptions.withId(name));
	}

	private static void settled(WorkflowEngine engine) {
		await().until(() -> engine.quiescence().isIdle() && !engine.quiescence().anyDue(engine.now()));
	}

	private static List<Integer> attempts(String name) {
		return Steps.ATTEMPTS.getOrDefault(name, List.of());
	}

	private static PendingActivity pending(WorkflowHandle<?> handle) {
		List<PendingActivity> pending = handle.describe().pendingActivities();
		assertThat(pending).hasSize(1);
		return pending.get(0);
	}

	private static List<String> events(WorkflowHandle<?> handle) {
		return handle.history().stream().map(HistoryEvent::type).toList();
	}

	/** Waits until the given attempts ran and the node has nothing due. */
	private void ran(WorkflowEngine engine, String name, Integer... expected) {
		await().until(() -> attempts(name).size() >= expected.length);
		await().until(() -> !engine.quiescence().anyActivityInFlight());
		settled(engine);
		assertThat(attempts(name)).containsExactly(expected);
	}

	@ParameterizedTest(name = "queued={0}")
	@ValueSource(booleans = { false, true })
	void aPausedActivityStartsNoAttemptUntilItIsUnpaused(boolean queued) {
		WorkflowEngine engine = node();
		String name = "pause-" + queued;
		WorkflowHandle<String> run = start(engine, queued, "work", name);
		ran(engine, name, 1); // its retry is due in 10 s
		long seq = pending(run).activityId();

		assertThat(run.pauseActivity(seq, "supplier down")).isTrue();
		assertThat(run.pauseActivity(seq, "again")).as("a second pause changes nothing").isFalse();
		PendingActivity paused = pending(run);
		assertThat(paused.isPaused()).isTrue();
		assertThat(paused.pausedTime()).isEqualTo(engine.now());
		assertThat(paused.pauseReason()).isEqualTo("supplier down");
		assertThat(run.waitingOn()).anySatisfy((wait) -> {
			assertThat(wait.kind()).isEqualTo(RunWait.Kind.ACTIVITY_PAUSED);
			assertThat(wait.detail()).isEqualTo("supplier down");
		});
		await().until(() -> events(run).contains("ACTIVITY_PAUSED"));

		this.engines.clock.advance(Duration.ofMinutes(5));
		settled(engine);
		assertThat(attempts(name)).as("no attempt while paused").containsExactly(1);

		Steps.succeedFrom = 2;
		assertThat(run.unpauseActivity(seq)).isTrue();
		assertThat(run.unpauseActivity(seq)).as("unpausing an activity that is not paused changes nothing").isFalse();
		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo(name + " done at attempt 2");
		assertThat(attempts(name)).containsExactly(1, 2);
		assertThat(events(run)).containsSubsequence("ACTIVITY_SCHEDULED", "ACTIVITY_PAUSED", "ACTIVITY_UNPAUSED",
				"ACTIVITY_COMPLETED");
		Engines.assertReplays(engine, run.runId());
	}

	@ParameterizedTest(name = "queued={0}")
	@ValueSource(booleans = { false, true })
	void aRunningAttemptSeesThePauseAtItsHeartbeatAndItsFailureWaitsForTheUnpause(boolean queued) {
		WorkflowEngine engine = node();
		String name = "heartbeat-" + queued;
		Steps.stopWhenPaused = true;
		WorkflowHandle<String> run = start(engine, queued, "work", name);
		await().until(() -> attempts(name).size() == 1);
		long seq = pending(run).activityId();

		run.pauseActivity(seq, "hold on");
		// heartbeats are recorded at most once a second (engine clock)
		this.engines.clock.advance(Duration.ofSeconds(2));
		await().until(() -> !engine.quiescence().anyActivityInFlight()); // it stopped
		Steps.stopWhenPaused = false;
		this.engines.clock.advance(Duration.ofMinutes(5));
		settled(engine);
		assertThat(attempts(name)).as("its failure starts no attempt while paused").containsExactly(1);
		assertThat(pending(run).lastFailure()).contains("stopped: the activity is paused");

		Steps.succeedFrom = 2;
		run.unpauseActivity(seq);
		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo(name + " done at attempt 2");
		assertThat(Steps.DETAILS).as("the next attempt got the last heartbeat")
			.last()
			.isEqualTo("progress of attempt 1");
		Engines.assertReplays(engine, run.runId());
	}

	@ParameterizedTest(name = "queued={0}")
	@ValueSource(booleans = { false, true })
	void theOutcomeOfAnAttemptThatCompletesWhilePausedCounts(boolean queued) {
		WorkflowEngine engine = node();
		String name = "completes-" + queued;
		Steps.stopWhenPaused = true;
		Steps.succeedFrom = 1;
		WorkflowHandle<String> run = start(engine, queued, "work", name);
		await().until(() -> attempts(name).size() == 1);
		run.pauseActivity(pending(run).activityId(), null);
		Steps.stopWhenPaused = false; // it completes without seeing the pause

		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo(name + " done at attempt 1");
		assertThat(events(run)).contains("ACTIVITY_PAUSED", "ACTIVITY_COMPLETED");
		Engines.assertReplays(engine, run.runId());
	}

	@ParameterizedTest(name = "queued={0}")
	@ValueSource(booleans = { false, true })
	void aResetStartsAttemptOneAtOnceAndMayDropTheHeartbeatDetails(boolean queued) {
		WorkflowEngine engine = node();
		String name = "reset-" + queued;
		WorkflowHandle<String> run = start(engine, queued, "work", name);
		ran(engine, name, 1);
		this.engines.clock.advance(Duration.ofSeconds(11));
		ran(engine, name, 1, 2); // attempt 3 is due in 10 s
		long seq = pending(run).activityId();
		assertThat(pending(run).attempt()).isEqualTo(3);

		run.resetActivity(seq, true);
		ran(engine, name, 1, 2, 1);
		assertThat(Steps.DETAILS).as("details kept").last().isEqualTo("progress of attempt 2");
		assertThat(pending(run).attempt()).isEqualTo(2);

		run.pauseActivity(seq, "before the reset");
		Steps.succeedFrom = 1;
		run.resetActivity(seq, false);
		assertThat(run.result(Duration.ofSeconds(20))).as("a reset lifts the pause")
			.isEqualTo(name + " done at attempt 1");
		assertThat(attempts(name)).containsExactly(1, 2, 1, 1);
		assertThat(Steps.DETAILS).as("details dropped").last().isEqualTo("null");
		assertThat(events(run)).containsSubsequence("ACTIVITY_RESET", "ACTIVITY_PAUSED", "ACTIVITY_RESET",
				"ACTIVITY_COMPLETED");
		Engines.assertReplays(engine, run.runId());
	}

	@ParameterizedTest(name = "queued={0}")
	@ValueSource(booleans = { false, true })
	void newOptionsApplyToTheAttemptsToCome(boolean queued) {
		WorkflowEngine engine = node();
		String name = "options-" + queued;
		Steps.succeedFrom = 3;
		WorkflowHandle<String> run = start(engine, queued, "limited", name); // 2 attempts
		ran(engine, name, 1);
		long seq = pending(run).activityId();

		RetryPolicy more = RetryPolicy.builder()
			.initialInterval(Duration.ofSeconds(1))
			.backoffCoefficient(1.0)
			.maximumAttempts(5)
			.build();
		assertThat(run
			.updateActivityOptions(seq,
					ActivityOptionsUpdate.of().retryPolicy(more).startToCloseTimeout(Duration.ofMinutes(3)))
			.retryPolicy()).isEqualTo(more);
		assertThat(pending(run).options().retryPolicy().maximumAttempts()).isEqualTo(5);
		assertThat(pending(run).options().startToCloseTimeout()).isEqualTo(Duration.ofMinutes(3));
		await().until(() -> events(run).contains("ACTIVITY_OPTIONS_UPDATED"));

		this.engines.clock.advance(Duration.ofSeconds(11));
		ran(engine, name, 1, 2); // would have failed the activity with 2 attempts
		this.engines.clock.advance(Duration.ofSeconds(2)); // the new 1 s interval
		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo(name + " done at attempt 3");
		Engines.assertReplays(engine, run.runId());
	}

	@ParameterizedTest(name = "queued={0}")
	@ValueSource(booleans = { false, true })
	void aRetryPolicyMayPauseAnActivityWhoseAttemptsAreExhausted(boolean queued) {
		WorkflowEngine engine = node();
		String name = "exhausted-" + queued;
		WorkflowHandle<String> run = start(engine, queued, "patient", name); // 2 attempts
		ran(engine, name, 1);
		this.engines.clock.advance(Duration.ofSeconds(11));
		ran(engine, name, 1, 2);

		PendingActivity paused = pending(run);
		assertThat(paused.isPaused()).isTrue();
		assertThat(paused.pauseReason()).startsWith("activity paused after 2 attempts");
		assertThat(run.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(run.waitingOn()).anySatisfy((wait) -> {
			assertThat(wait.kind()).isEqualTo(RunWait.Kind.ACTIVITY_PAUSED);
			assertThat(wait.detail()).startsWith("activity paused after 2 attempts");
		});
		await().until(() -> events(run).contains("ACTIVITY_PAUSED"));
		assertThat(run.history()).filteredOn((event) -> event.type().equals("ACTIVITY_PAUSED"))
			.singleElement()
			.satisfies((event) -> assertThat(event.attributes()).containsEntry("name", "retryPolicy"));
		this.engines.clock.advance(Duration.ofMinutes(5));
		settled(engine);
		assertThat(attempts(name)).containsExactly(1, 2);

		// an unpause is a new round of two attempts
		long seq = paused.activityId();
		run.unpauseActivity(seq);
		ran(engine, name, 1, 2, 3);
		this.engines.clock.advance(Duration.ofSeconds(11));
		ran(engine, name, 1, 2, 3, 4);
		assertThat(pending(run).pauseReason()).startsWith("activity paused after 4 attempts");

		// a reset starts over
		Steps.succeedFrom = 1;
		run.resetActivity(seq, true);
		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo(name + " done at attempt 1");
		Engines.assertReplays(engine, run.runId());
	}

	@Test
	void theOperationsGoThroughTheClientInterceptorsWhichMayRefuseThem() {
		List<String> seen = new CopyOnWriteArrayList<>();
		boolean[] refuse = { true };
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(Operated.class)
			.registerActivities(new InlineSteps(), new QueuedSteps())
			.interceptor(new WorkflowInterceptor() {
				@Override
				public <R> R interceptClient(ClientCall call, Supplier<R> next) {
					if (call.operation().name().contains("ACTIVITY")) {
						seen.add(call.operation() + " " + call.workflowId() + " " + call.name());
						if (refuse[0]) {
							throw new IllegalStateException("activity operations need an operator");
						}
					}
					return next.get();
				}
			}));
		WorkflowHandle<String> run = start(engine, false, "work", "intercepted");
		ran(engine, "intercepted", 1);
		long seq = pending(run).activityId();

		assertThatThrownBy(() -> run.pauseActivity(seq, null)).hasMessage("activity operations need an operator");
		assertThat(pending(run).isPaused()).as("refused: nothing changed").isFalse();
		refuse[0] = false;
		run.pauseActivity(seq, null);
		run.unpauseActivity(seq);
		run.updateActivityOptions(seq, ActivityOptionsUpdate.of().heartbeatTimeout(Duration.ofMinutes(1)));
		Steps.succeedFrom = 1;
		run.resetActivity(seq, true);
		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("intercepted done at attempt 1");
		assertThat(seen).containsExactly("PAUSE_ACTIVITY intercepted " + seq, "PAUSE_ACTIVITY intercepted " + seq,
				"UNPAUSE_ACTIVITY intercepted " + seq, "UPDATE_ACTIVITY_OPTIONS intercepted " + seq,
				"RESET_ACTIVITY intercepted " + seq);
		assertThat(events(run)).filteredOn("ACTIVITY_PAUSED"::equals).hasSize(1);
	}

	@Test
	void aLocalActivityIsNeverPausedItFailsWhenItsAttemptsAreExhausted() {
		WorkflowEngine engine = node();
		WorkflowHandle<String> run = start(engine, false, "local", "local-exhausted");
		await().until(() -> run.describe().status() == WorkflowStatus.FAILED);
		assertThat(attempts("local-exhausted")).containsExactly(1, 2);
	}

	@Test
	void aTaskQueueAttemptTimedOutByTheSweepPausesAnActivityWhoseAttemptsAreExhausted() {
		WorkflowEngine engine = node();
		Steps.block = new CountDownLatch(1);
		WorkflowHandle<String> run = start(engine, true, "slow", "swept");
		await().until(() -> attempts("swept").size() == 1);
		this.engines.clock.advance(Duration.ofSeconds(3)); // past its start-to-close
															// timeout
		await().until(() -> pending(run).isPaused());
		assertThat(pending(run).pauseReason()).startsWith("activity paused after 1 attempt:");
		assertThat(pending(run).lastFailure()).contains("start-to-close");

		CountDownLatch latch = Steps.block;
		Steps.block = null;
		latch.countDown();
		Steps.succeedFrom = 1;
		run.unpauseActivity(pending(run).activityId());
		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("swept done at attempt 2");
	}

	@Test
	void anInlineRetryTheRunsPauseHeldBackStaysPausedWhenItsActivityIsPaused() {
		WorkflowEngine engine = node();
		WorkflowHandle<String> run = start(engine, false, "work", "both-paused");
		ran(engine, "both-paused", 1); // its retry is due in 10 s
		long seq = pending(run).activityId();
		run.pause("whole run");
		this.engines.clock.advance(Duration.ofSeconds(11)); // the retry comes due: held
															// back
		settled(engine);
		run.pauseActivity(seq, "the activity too");
		run.unpause();
		this.engines.clock.advance(Duration.ofMinutes(1));
		await().until(() -> events(run).contains("ACTIVITY_PAUSED"));
		settled(engine);
		assertThat(attempts("both-paused")).as("the held retry does not start").containsExactly(1);

		Steps.succeedFrom = 2;
		run.unpauseActivity(seq);
		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("both-paused done at attempt 2");
	}

	@Test
	void withoutPauseWhenExhaustedTheActivityFails() {
		WorkflowEngine engine = node();
		WorkflowHandle<String> run = start(engine, false, "limited", "fails");
		ran(engine, "fails", 1);
		this.engines.clock.advance(Duration.ofSeconds(11));
		await().until(() -> run.describe().status() == WorkflowStatus.FAILED);
	}

	@Test
	void operationsOnAnActivityTheRunDoesNotWaitForAreRefused() {
		WorkflowEngine engine = node();
		Steps.succeedFrom = 2;
		WorkflowHandle<String> run = start(engine, false, "work", "bad-input");
		ran(engine, "bad-input", 1);
		long seq = pending(run).activityId();

		assertThatThrownBy(() -> run.pauseActivity(seq + 100, null)).isInstanceOf(ActivityNotPendingException.class)
			.hasMessageContaining("has no pending activity " + (seq + 100));
		assertThatThrownBy(() -> run.updateActivityOptions(seq, ActivityOptionsUpdate.of()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("changes nothing");
		assertThatThrownBy(() -> run.updateActivityOptions(seq,
				ActivityOptionsUpdate.of().startToCloseTimeout(Duration.ofSeconds(-1))))
			.isInstanceOf(IllegalArgumentException.class);

		this.engines.clock.advance(Duration.ofSeconds(11));
		assertThat(run.result(Duration.ofSeconds(20))).isEqualTo("bad-input done at attempt 2");
		assertThatThrownBy(() -> run.pauseActivity(seq, null)).as("a closed run")
			.isInstanceOf(WorkflowClosedException.class);

		Steps.succeedFrom = 2;
		WorkflowHandle<String> open = start(engine, false, "two", "second");
		ran(engine, "second", 1); // the first activity completed, the second waits
		long second = pending(open).activityId();
		assertThatThrownBy(() -> open.resetActivity(second - 1, true)).as("a completed activity")
			.isInstanceOf(ActivityNotPendingException.class);
		assertThat(events(open)).doesNotContain("ACTIVITY_RESET");
	}

}
