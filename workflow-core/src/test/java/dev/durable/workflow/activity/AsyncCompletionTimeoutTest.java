package dev.durable.workflow.activity;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.TimeoutFailure;
import dev.durable.workflow.failure.TimeoutType;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * An inline activity (no task queue) whose attempt completes asynchronously, through
 * {@link ActivityCompletionClient}, still obeys its timeouts: when nobody answers within
 * its start-to-close timeout, or it stops heartbeating (or never heartbeats) for its
 * heartbeat timeout, the attempt fails and its retry policy decides, as for a task-queue
 * activity: the next attempt runs at its retry time, and the run fails once the attempts
 * are used up. The same holds on a node that took the run over while such an attempt
 * waited.
 */
class AsyncCompletionTimeoutTest {

	static final BlockingQueue<String> TOKENS = new LinkedBlockingQueue<>();

	/** Each attempt's method call, as "method:attempt". */
	static final List<String> CALLS = new CopyOnWriteArrayList<>();

	private final Engines engines = new Engines();

	@BeforeEach
	void reset() {
		TOKENS.clear();
		CALLS.clear();
	}

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public interface Reviews {

		@ActivityMethod(startToCloseTimeout = "PT10S", initialInterval = "PT1S", maxAttempts = 3)
		String review(String document);

		@ActivityMethod(heartbeatTimeout = "PT5S", initialInterval = "PT1S", maxAttempts = 3)
		String reviewWithHeartbeats(String document);

		/** Never answered: each attempt times out. */
		@ActivityMethod(startToCloseTimeout = "PT10S", initialInterval = "PT1S", maxAttempts = 2)
		String reviewNobodyAnswers(String document);

	}

	/** The first attempt hands its token out and returns; a later one answers at once. */
	public static class Reviewer implements Reviews {

		@Override
		public String review(String document) {
			return handOut("review", document, true);
		}

		@Override
		public String reviewWithHeartbeats(String document) {
			return handOut("heartbeats", document, true);
		}

		@Override
		public String reviewNobodyAnswers(String document) {
			return handOut("nobody", document, false);
		}

		private static String handOut(String method, String document, boolean answerOnRetry) {
			ActivityContext context = ActivityContext.current();
			int attempt = context.info().attempt();
			CALLS.add(method + ":" + attempt);
			if (answerOnRetry && attempt > 1) {
				return document + " reviewed on attempt " + attempt;
			}
			context.doNotCompleteOnReturn();
			TOKENS.add(context.taskToken());
			return "ignored: the completion client decides";
		}

	}

	@Workflow("review")
	public static class ReviewWorkflow {

		private final Reviews reviews;

		public ReviewWorkflow(Reviews reviews) {
			this.reviews = reviews;
		}

		@WorkflowRun
		public String run(String how) {
			return switch (how) {
				case "deadline" -> this.reviews.review("contract");
				case "heartbeats" -> this.reviews.reviewWithHeartbeats("contract");
				default -> this.reviews.reviewNobodyAnswers("contract");
			};
		}

	}

	private WorkflowEngine node(StallingHooks hooks) {
		WorkflowEngine.Builder builder = this.engines.builder()
			.register(ReviewWorkflow.class)
			.registerActivities(new Reviewer());
		return this.engines.start((hooks != null) ? builder.hooks(hooks) : builder);
	}

	/** Another node, running nothing: only its client is used. */
	private ActivityCompletionClient otherNode() {
		return this.engines.start(this.engines.builder().worker(false)).client().activityCompletion();
	}

	private static String token() throws InterruptedException {
		String token = TOKENS.poll(20, TimeUnit.SECONDS);
		assertThat(token).as("task token").isNotNull();
		return token;
	}

	/**
	 * Waits until the attempt's method returned and its row waits for the completion
	 * client.
	 */
	private void awaitAsynchronous() {
		await().until(() -> "ASYNC".equals(this.engines.jdbc()
			.queryForObject("SELECT state FROM " + this.engines.schema + ".activity", String.class)));
	}

	/** Waits until the activity's next attempt is recorded with its retry time. */
	private static PendingActivity awaitAttempt(WorkflowHandle<?> handle, int attempt) {
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			List<PendingActivity> pending = handle.describe().pendingActivities();
			return !pending.isEmpty() && pending.get(0).attempt() == attempt;
		});
		return handle.describe().pendingActivities().get(0);
	}

	/**
	 * Waits until every action the moved clock made due on the node (its heartbeat
	 * checks) has run.
	 */
	private static void awaitDueActions(WorkflowEngine node) {
		await().until(() -> !EngineInternals.node(node).hasDueActions());
	}

	@Test
	void anUnansweredAttemptTimesOutAfterItsStartToCloseTimeoutAndIsRetried() throws Exception {
		WorkflowEngine node = node(null);
		WorkflowHandle<String> handle = node.client()
			.start(ReviewWorkflow::run, "deadline", StartOptions.withId("r-1"));
		String token = token();
		awaitAsynchronous();
		this.engines.clock.advance(Duration.ofSeconds(11));
		PendingActivity retry = awaitAttempt(handle, 2);
		assertThat(retry.lastFailure()).contains("START_TO_CLOSE");
		assertThat(retry.nextAttemptTime()).isEqualTo(this.engines.clock.instant().plusSeconds(1));
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("contract reviewed on attempt 2");
		assertThat(CALLS).containsExactly("review:1", "review:2");
		// the timed-out attempt's token is over
		assertThat(otherNode().complete(token, "too late")).isFalse();
		assertThat(this.engines.count("activity")).isZero();
		Engines.assertReplays(node, handle.runId());
	}

	@Test
	void anAttemptThatStopsHeartbeatingThroughTheClientTimesOutAndIsRetried() throws Exception {
		WorkflowEngine node = node(null);
		ActivityCompletionClient completions = otherNode();
		WorkflowHandle<String> handle = node.client()
			.start(ReviewWorkflow::run, "heartbeats", StartOptions.withId("r-2"));
		String token = token();
		awaitAsynchronous();
		this.engines.clock.advance(Duration.ofSeconds(3));
		assertThat(completions.heartbeat(token, "page 3")).isTrue();
		// 6 s after the start, past the 5 s of a silent attempt, 3 s after the heartbeat:
		// alive
		this.engines.clock.advance(Duration.ofSeconds(3));
		awaitDueActions(node);
		assertThat(completions.heartbeat(token, null)).isTrue();
		assertThat(handle.describe().pendingActivities()).singleElement()
			.satisfies((pending) -> assertThat(pending.attempt()).isEqualTo(1));
		// nothing more: 5 s after the last heartbeat the attempt times out
		this.engines.clock.advance(Duration.ofSeconds(5));
		PendingActivity retry = awaitAttempt(handle, 2);
		assertThat(retry.lastFailure()).contains("HEARTBEAT");
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("contract reviewed on attempt 2");
		assertThat(CALLS).containsExactly("heartbeats:1", "heartbeats:2");
		assertThat(completions.heartbeat(token, null)).isFalse();
		Engines.assertReplays(node, handle.runId());
	}

	@Test
	void anAttemptThatNeverHeartbeatsTimesOutAndIsRetried() throws Exception {
		WorkflowEngine node = node(null);
		WorkflowHandle<String> handle = node.client()
			.start(ReviewWorkflow::run, "heartbeats", StartOptions.withId("r-3"));
		String token = token();
		awaitAsynchronous();
		this.engines.clock.advance(Duration.ofSeconds(6));
		PendingActivity retry = awaitAttempt(handle, 2);
		assertThat(retry.lastFailure()).contains("HEARTBEAT");
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("contract reviewed on attempt 2");
		assertThat(CALLS).containsExactly("heartbeats:1", "heartbeats:2");
		assertThat(otherNode().complete(token, "too late")).isFalse();
	}

	@Test
	void theRunFailsOnceTheTimedOutAttemptsAreUsedUp() throws Exception {
		WorkflowEngine node = node(null);
		WorkflowHandle<String> handle = node.client().start(ReviewWorkflow::run, "nobody", StartOptions.withId("r-4"));
		token();
		awaitAsynchronous();
		this.engines.clock.advance(Duration.ofSeconds(11));
		awaitAttempt(handle, 2);
		this.engines.clock.advance(Duration.ofSeconds(1));
		token();
		awaitAsynchronous();
		this.engines.clock.advance(Duration.ofSeconds(11));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.cause()
			.isInstanceOf(ActivityFailure.class)
			.satisfies((ex) -> assertThat(((ActivityFailure) ex).getAttempt()).isEqualTo(2))
			.rootCause()
			.isInstanceOf(TimeoutFailure.class)
			.satisfies(
					(ex) -> assertThat(((TimeoutFailure) ex).getTimeoutType()).isEqualTo(TimeoutType.START_TO_CLOSE));
		assertThat(CALLS).containsExactly("nobody:1", "nobody:2");
		Engines.assertReplays(node, handle.runId());
	}

	@Test
	void theNodeThatTakesTheRunOverTimesTheWaitingAttemptOut() throws Exception {
		StallingHooks hooks = new StallingHooks();
		WorkflowEngine first = node(hooks);
		WorkflowHandle<String> handle = first.client()
			.start(ReviewWorkflow::run, "deadline", StartOptions.withId("r-5"));
		String token = token();
		awaitAsynchronous();
		// the first node stops heartbeating (frozen, cut off): another takes the run over
		hooks.stallHeartbeats = true;
		WorkflowEngine second = node(null);
		await().atMost(Duration.ofSeconds(20)).until(() -> second.cachedRuns() == 1);
		this.engines.clock.advance(Duration.ofSeconds(11));
		PendingActivity retry = awaitAttempt(handle, 2);
		assertThat(retry.lastFailure()).contains("START_TO_CLOSE");
		this.engines.clock.advance(Duration.ofSeconds(1));
		// the frozen node's client is not asked: its node no longer hears of the run
		assertThat(second.client().handle("r-5", String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("contract reviewed on attempt 2");
		assertThat(CALLS).containsExactly("review:1", "review:2");
		assertThat(otherNode().complete(token, "too late")).isFalse();
		hooks.release();
	}

	@Test
	void afterATakeoverTheHeartbeatTimeoutCountsFromTheLastHeartbeat() throws Exception {
		StallingHooks hooks = new StallingHooks();
		WorkflowEngine first = node(hooks);
		ActivityCompletionClient completions = otherNode();
		WorkflowHandle<String> handle = first.client()
			.start(ReviewWorkflow::run, "heartbeats", StartOptions.withId("r-6"));
		String token = token();
		awaitAsynchronous();
		this.engines.clock.advance(Duration.ofSeconds(2));
		assertThat(completions.heartbeat(token, "page 2")).isTrue();
		this.engines.clock.advance(Duration.ofSeconds(4));
		awaitDueActions(first);
		hooks.stallHeartbeats = true;
		WorkflowEngine second = node(null);
		await().atMost(Duration.ofSeconds(20)).until(() -> second.cachedRuns() == 1);
		// taken over 4 s after the last heartbeat: 1 s later, the 5 s since it are up
		this.engines.clock.advance(Duration.ofSeconds(1));
		PendingActivity retry = awaitAttempt(handle, 2);
		assertThat(retry.lastFailure()).contains("HEARTBEAT");
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(second.client().handle("r-6", String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("contract reviewed on attempt 2");
		assertThat(CALLS).containsExactly("heartbeats:1", "heartbeats:2");
		hooks.release();
	}

}
