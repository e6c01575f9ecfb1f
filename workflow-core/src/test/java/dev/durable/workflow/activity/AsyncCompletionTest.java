package dev.durable.workflow.activity;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.AfterQuery;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Activities completed asynchronously: the method returns after
 * {@link ActivityContext#doNotCompleteOnReturn()}, and the attempt's outcome comes later
 * through {@link ActivityCompletionClient} from another node, once.
 */
class AsyncCompletionTest {

	private final Engines engines = new Engines();

	static final BlockingQueue<String> TOKENS = new LinkedBlockingQueue<>();

	static final AtomicInteger ATTEMPTS = new AtomicInteger();

	@BeforeEach
	void reset() {
		TOKENS.clear();
		ATTEMPTS.set(0);
	}

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public interface Approvals {

		/** Asks a person; their answer completes the activity. */
		@ActivityMethod(initialInterval = "PT1S")
		String ask(String question);

		@ActivityMethod(taskQueue = "people", initialInterval = "PT1S")
		String askRemotely(String question);

		@ActivityMethod(heartbeatTimeout = "PT5S", initialInterval = "PT1S")
		String askWithHeartbeats(String question);

		@ActivityMethod(taskQueue = "people", startToCloseTimeout = "PT10S", initialInterval = "PT1S")
		String askWithDeadline(String question);

	}

	/** Hands its token out; the second attempt (after a retry) answers at once. */
	public static class Asker implements Approvals {

		@Override
		public String ask(String question) {
			return handOut(question);
		}

		@Override
		public String askRemotely(String question) {
			return handOut(question);
		}

		@Override
		public String askWithHeartbeats(String question) {
			return handOut(question);
		}

		@Override
		public String askWithDeadline(String question) {
			return handOut(question);
		}

		private static String handOut(String question) {
			ActivityContext context = ActivityContext.current();
			ATTEMPTS.incrementAndGet();
			if (context.info().attempt() > 1) {
				return "answered at once on attempt " + context.info().attempt();
			}
			context.doNotCompleteOnReturn();
			TOKENS.add(context.taskToken());
			return "ignored: the completion client decides";
		}

	}

	@Workflow("ask")
	public static class AskWorkflow {

		private final Approvals approvals;

		public AskWorkflow(Approvals approvals) {
			this.approvals = approvals;
		}

		@WorkflowRun
		public String run(String how) {
			return switch (how) {
				case "inline" -> this.approvals.ask("ship it?");
				case "remote" -> this.approvals.askRemotely("ship it?");
				case "heartbeats" -> this.approvals.askWithHeartbeats("ship it?");
				default -> this.approvals.askWithDeadline("ship it?");
			};
		}

	}

	private WorkflowEngine node() {
		return this.engines.start(this.engines.builder()
			.register(AskWorkflow.class)
			.registerActivities(new Asker())
			.activityTaskQueues("people"));
	}

	/** Another node, running nothing: only its client is used. */
	private ActivityCompletionClient otherNode() {
		return this.engines.start(this.engines.builder().worker(false)).client().activityCompletion();
	}

	/**
	 * Waits until the attempt's method returned and its row waits for the completion
	 * client.
	 */
	private void awaitAsynchronous() {
		await().until(() -> "ASYNC".equals(this.engines.jdbc()
			.queryForObject("SELECT state FROM " + this.engines.schema + ".activity", String.class)));
	}

	private static String token() throws InterruptedException {
		String token = TOKENS.poll(20, TimeUnit.SECONDS);
		assertThat(token).as("task token").isNotNull();
		return token;
	}

	@Test
	void aTaskQueueActivityIsCompletedFromAnotherNodeOnce() throws Exception {
		WorkflowEngine node = node();
		ActivityCompletionClient completions = otherNode();
		WorkflowHandle<String> handle = node.client().start(AskWorkflow::run, "remote", StartOptions.withId("ask-1"));
		String token = token();
		awaitAsynchronous();
		assertThat(completions.heartbeat(token, "still thinking")).isTrue();
		assertThat(completions.complete(token, "yes")).isTrue();
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("yes");
		// a second completion, or one after the end, changes nothing
		assertThat(completions.complete(token, "no")).isFalse();
		assertThat(completions.fail(token, ApplicationFailure.newFailure("late", "Late"))).isFalse();
		assertThat(completions.heartbeat(token, null)).isFalse();
		assertThat(ATTEMPTS).hasValue(1);
		Engines.assertReplays(node, handle.runId());
	}

	@Test
	void anInlineActivityIsCompletedFromAnotherNode() throws Exception {
		WorkflowEngine node = node();
		ActivityCompletionClient completions = otherNode();
		WorkflowHandle<String> handle = node.client().start(AskWorkflow::run, "inline", StartOptions.withId("ask-2"));
		String token = token();
		assertThat(completions.complete(token, "approved")).isTrue();
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("approved");
		assertThat(completions.complete(token, "again")).isFalse();
		assertThat(this.engines.count("activity")).isZero();
		Engines.assertReplays(node, handle.runId());
	}

	@Test
	void aFailureThroughTheClientIsRetriedByTheRetryPolicy() throws Exception {
		WorkflowEngine node = node();
		ActivityCompletionClient completions = otherNode();
		WorkflowHandle<String> inline = node.client().start(AskWorkflow::run, "inline", StartOptions.withId("ask-3"));
		assertThat(completions.fail(token(), ApplicationFailure.newFailure("not now", "Busy"))).isTrue();
		WorkflowHandle<String> remote = node.client().start(AskWorkflow::run, "remote", StartOptions.withId("ask-4"));
		assertThat(completions.fail(token(), ApplicationFailure.newFailure("not now", "Busy"))).isTrue();
		// both wait for their retry time (1 s, by the engine clock)
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".activity WHERE attempt = 2",
					Integer.class) == 2);
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(inline.result(Duration.ofSeconds(20))).isEqualTo("answered at once on attempt 2");
		assertThat(remote.result(Duration.ofSeconds(20))).isEqualTo("answered at once on attempt 2");
		Engines.assertReplays(node, inline.runId());
	}

	@Test
	void aNonRetryableFailureFailsTheWorkflow() throws Exception {
		WorkflowEngine node = node();
		ActivityCompletionClient completions = otherNode();
		WorkflowHandle<String> handle = node.client().start(AskWorkflow::run, "remote", StartOptions.withId("ask-5"));
		assertThat(completions.fail(token(), ApplicationFailure.newNonRetryableFailure("rejected", "Rejected")))
			.isTrue();
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.hasRootCauseMessage("rejected");
	}

	@Test
	void anAsynchronousAttemptStillTimesOut() throws Exception {
		WorkflowEngine node = node();
		WorkflowHandle<String> handle = node.client().start(AskWorkflow::run, "deadline", StartOptions.withId("ask-6"));
		String token = token();
		awaitAsynchronous();
		// nobody answers within the start-to-close timeout: the attempt times out and is
		// retried
		this.engines.clock.advance(Duration.ofSeconds(11));
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT attempt FROM " + this.engines.schema + ".activity", Integer.class) == 2);
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("answered at once on attempt 2");
		assertThat(otherNode().complete(token, "too late")).isFalse();
	}

	@Test
	void heartbeatsThroughTheClientKeepAnInlineAttemptAlive() throws Exception {
		WorkflowEngine node = node();
		ActivityCompletionClient completions = otherNode();
		WorkflowHandle<String> handle = node.client()
			.start(AskWorkflow::run, "heartbeats", StartOptions.withId("ask-8"));
		String token = token();
		awaitAsynchronous();
		for (int i = 0; i < 3; i++) {
			this.engines.clock.advance(Duration.ofSeconds(3));
			assertThat(completions.heartbeat(token, "reading, page " + i)).isTrue();
		}
		// 9 s after the start, past the 5 s heartbeat timeout of a silent attempt: still
		// the first attempt
		await().pollDelay(Duration.ofMillis(300)).until(() -> true);
		assertThat(ATTEMPTS).hasValue(1);
		assertThat(completions.complete(token, "read it all")).isTrue();
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("read it all");
	}

	@Test
	void aHeartbeatWhileTheTimeoutCheckReadsTheRowKeepsTheAttemptAlive() throws Exception {
		CountDownLatch read = new CountDownLatch(1);
		CountDownLatch decide = new CountDownLatch(1);
		AfterQuery checkRead = new AfterQuery(TestDatabase.dataSource(), "SELECT last_heartbeat_at FROM", () -> {
			read.countDown();
			awaitUninterruptibly(decide);
		});
		WorkflowEngine node = this.engines.start(this.engines.builder()
			.dataSource(checkRead.dataSource())
			.register(AskWorkflow.class)
			.registerActivities(new Asker()));
		ActivityCompletionClient completions = otherNode();
		WorkflowHandle<String> handle = node.client()
			.start(AskWorkflow::run, "heartbeats", StartOptions.withId("ask-9"));
		String token = token();
		awaitAsynchronous();
		this.engines.clock.advance(Duration.ofSeconds(3));
		assertThat(completions.heartbeat(token, "page 1")).isTrue();
		// the check due 5 s after the start reads the row (last heartbeat at 3 s) ...
		this.engines.clock.advance(Duration.ofSeconds(3));
		assertThat(read.await(20, TimeUnit.SECONDS)).as("the heartbeat check read the row").isTrue();
		// ... and, before it decides, a heartbeat comes in time (at 6 s) and the clock
		// moves past the deadline the row it read gives (8 s)
		assertThat(completions.heartbeat(token, "page 2")).isTrue();
		this.engines.clock.advance(Duration.ofSeconds(3));
		decide.countDown();
		// the check decided: it timed the attempt out, or looked again (the clock is past
		// the deadline it first computed)
		await().until(() -> checkRead.answered() > 1 || this.engines.jdbc()
			.queryForObject("SELECT attempt FROM " + this.engines.schema + ".activity", Integer.class) > 1);
		assertThat(completions.heartbeat(token, "page 3")).as("the attempt is still the current one").isTrue();
		assertThat(completions.complete(token, "read it all")).isTrue();
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("read it all");
		assertThat(ATTEMPTS).hasValue(1);
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void anInlineAttemptStillWaitsAfterItsNodeStops() throws Exception {
		WorkflowEngine first = node();
		WorkflowHandle<String> handle = first.client().start(AskWorkflow::run, "inline", StartOptions.withId("ask-7"));
		String token = token();
		awaitAsynchronous();
		first.shutdown();
		WorkflowEngine second = node();
		await().until(() -> second.cachedRuns() == 1);
		assertThat(otherNode().complete(token, "approved later")).isTrue();
		// the result through the serving node: the stopped one is not told when the run
		// closes
		assertThat(second.client().handle(handle.workflowId(), String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("approved later");
		assertThat(ATTEMPTS).hasValue(1);
	}

	@Test
	void aMalformedTokenIsRejected() {
		ActivityCompletionClient completions = otherNode();
		assertThatThrownBy(() -> completions.complete("not-a-token", "x")).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> completions.heartbeat("", null)).isInstanceOf(IllegalArgumentException.class);
		assertThat(this.engines.count("inbox")).isZero();
	}

}
