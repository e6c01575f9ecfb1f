package dev.durable.workflow.activity;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.ActivityCompletionClient;
import dev.durable.workflow.client.PendingActivity;
import dev.durable.workflow.client.PendingActivityState;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueInfo;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code describe().pendingActivities()} lists every activity a run waits for, on a task
 * queue or not: one waiting to be claimed (no node serves its queue), one whose attempt
 * runs, one whose attempt waits for the completion client, one waiting for its retry;
 * each with its state, attempt, last failure, retry time and, where recorded, its start
 * and last heartbeat.
 */
class PendingActivitiesTest {

	static final BlockingQueue<String> TOKENS = new LinkedBlockingQueue<>();

	static volatile CountDownLatch running;

	private final Engines engines = new Engines();

	@BeforeEach
	void reset() {
		TOKENS.clear();
		running = new CountDownLatch(1);
	}

	@AfterEach
	void close() {
		running.countDown();
		this.engines.close();
	}

	@Activity
	public interface Renders {

		@ActivityMethod(taskQueue = "gpu", initialInterval = "PT10S")
		String render(String scene);

		@ActivityMethod(initialInterval = "PT10S")
		String renderHere(String scene);

	}

	/**
	 * "async" hands its token out; "block" runs until the test ends; anything else
	 * answers at once.
	 */
	public static class Renderer implements Renders {

		@Override
		public String render(String scene) {
			return act(scene);
		}

		@Override
		public String renderHere(String scene) {
			return act(scene);
		}

		private static String act(String scene) {
			ActivityContext context = ActivityContext.current();
			if (context.info().attempt() > 1) {
				return scene + " on attempt " + context.info().attempt();
			}
			switch (scene) {
				case "async" -> {
					context.doNotCompleteOnReturn();
					TOKENS.add(context.taskToken());
				}
				case "block" -> {
					try {
						running.await(30, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				default -> {
				}
			}
			return scene + " on attempt 1";
		}

	}

	@Workflow("scene")
	public static class SceneWorkflow {

		private final Renders renders;

		public SceneWorkflow(Renders renders) {
			this.renders = renders;
		}

		/**
		 * "queue:async" renders "async" on the task queue; "here:block" inline, and so
		 * on.
		 */
		@WorkflowRun
		public String run(String how) {
			String scene = how.substring(how.indexOf(':') + 1);
			return how.startsWith("queue:") ? this.renders.render(scene) : this.renders.renderHere(scene);
		}

	}

	/** A node that runs the workflow; it claims from the "gpu" queue only when told. */
	private WorkflowEngine node(boolean servesGpu) {
		WorkflowEngine.Builder builder = this.engines.builder()
			.register(SceneWorkflow.class)
			.registerActivities(new Renderer());
		return this.engines.start(servesGpu ? builder.activityTaskQueues("gpu") : builder);
	}

	private ActivityCompletionClient otherNode() {
		return this.engines.start(this.engines.builder().worker(false)).client().activityCompletion();
	}

	private static String token() throws InterruptedException {
		String token = TOKENS.poll(20, TimeUnit.SECONDS);
		assertThat(token).as("task token").isNotNull();
		return token;
	}

	/**
	 * Waits until describe lists the run's one pending activity in the state, and returns
	 * it.
	 */
	private static PendingActivity awaitPending(WorkflowHandle<?> handle, PendingActivityState state, int attempt) {
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			List<PendingActivity> pending = handle.describe().pendingActivities();
			return pending.size() == 1 && pending.get(0).state() == state && pending.get(0).attempt() == attempt;
		});
		return handle.describe().pendingActivities().get(0);
	}

	private static long waitingOnGpu(WorkflowEngine engine) {
		return engine.queues()
			.stream()
			.filter((queue) -> queue.definition().name().equals("gpu"))
			.mapToLong(QueueInfo::waitingActivities)
			.sum();
	}

	@Test
	void aTaskQueueActivityNoNodeClaimsIsListedAsScheduled() {
		WorkflowEngine node = node(false);
		Instant start = this.engines.clock.instant();
		WorkflowHandle<String> handle = node.client()
			.start(SceneWorkflow::run, "queue:quick", StartOptions.withId("s-1"));
		await().until(() -> waitingOnGpu(node) == 1);
		assertThat(handle.describe().pendingActivities()).singleElement().satisfies((pending) -> {
			assertThat(pending.activityType()).isEqualTo("render");
			assertThat(pending.state()).isEqualTo(PendingActivityState.SCHEDULED);
			assertThat(pending.taskQueue()).isEqualTo("gpu");
			assertThat(pending.attempt()).isEqualTo(1);
			assertThat(pending.scheduledTime()).isEqualTo(start);
			assertThat(pending.nextAttemptTime()).isEqualTo(start);
			assertThat(pending.lastFailure()).isNull();
			assertThat(pending.lastStartedTime()).isNull();
		});
		// a node that serves the queue comes: it claims and completes the activity
		node(true);
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("quick on attempt 1");
		assertThat(handle.describe().pendingActivities()).isEmpty();
	}

	@Test
	void aClaimedTaskQueueAttemptIsListedAsStarted() {
		WorkflowEngine node = node(true);
		Instant start = this.engines.clock.instant();
		WorkflowHandle<String> handle = node.client()
			.start(SceneWorkflow::run, "queue:block", StartOptions.withId("s-2"));
		PendingActivity pending = awaitPending(handle, PendingActivityState.STARTED, 1);
		assertThat(pending.taskQueue()).isEqualTo("gpu");
		assertThat(pending.lastStartedTime()).isEqualTo(start);
		running.countDown();
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("block on attempt 1");
	}

	@Test
	void aTaskQueueAttemptAwaitingTheCompletionClientIsListedThenItsRetry() throws Exception {
		WorkflowEngine node = node(true);
		ActivityCompletionClient completions = otherNode();
		Instant start = this.engines.clock.instant();
		WorkflowHandle<String> handle = node.client()
			.start(SceneWorkflow::run, "queue:async", StartOptions.withId("s-3"));
		String token = token();
		PendingActivity waiting = awaitPending(handle, PendingActivityState.AWAITING_COMPLETION, 1);
		assertThat(waiting.taskQueue()).isEqualTo("gpu");
		assertThat(waiting.lastStartedTime()).isEqualTo(start);
		assertThat(waiting.lastHeartbeatTime()).isNull();
		this.engines.clock.advance(Duration.ofSeconds(2));
		assertThat(completions.heartbeat(token, "half done")).isTrue();
		assertThat(handle.describe().pendingActivities().get(0).lastHeartbeatTime()).isEqualTo(start.plusSeconds(2));
		// failed through the client: back in its queue, due at its retry time
		assertThat(completions.fail(token, ApplicationFailure.newFailure("GPU overheated", "Overheated"))).isTrue();
		PendingActivity retry = awaitPending(handle, PendingActivityState.SCHEDULED, 2);
		assertThat(retry.lastFailure()).contains("GPU overheated");
		assertThat(retry.nextAttemptTime()).isEqualTo(start.plusSeconds(12));
		assertThat(retry.lastStartedTime()).isNull();
		assertThat(retry.lastHeartbeatTime()).isNull();
		this.engines.clock.advance(Duration.ofSeconds(10));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("async on attempt 2");
	}

	@Test
	void inlineActivitiesAreListedTheSameWay() throws Exception {
		WorkflowEngine node = node(false);
		ActivityCompletionClient completions = otherNode();
		Instant start = this.engines.clock.instant();
		WorkflowHandle<String> blocked = node.client()
			.start(SceneWorkflow::run, "here:block", StartOptions.withId("s-4"));
		PendingActivity runningHere = awaitPending(blocked, PendingActivityState.STARTED, 1);
		assertThat(runningHere.taskQueue()).isNull();
		assertThat(runningHere.scheduledTime()).isEqualTo(start);

		WorkflowHandle<String> async = node.client()
			.start(SceneWorkflow::run, "here:async", StartOptions.withId("s-5"));
		String token = token();
		PendingActivity waiting = awaitPending(async, PendingActivityState.AWAITING_COMPLETION, 1);
		assertThat(waiting.taskQueue()).isNull();
		assertThat(waiting.lastStartedTime()).isEqualTo(start);
		assertThat(completions.fail(token, ApplicationFailure.newFailure("not yet", "NotYet"))).isTrue();
		PendingActivity retry = awaitPending(async, PendingActivityState.SCHEDULED, 2);
		assertThat(retry.lastFailure()).contains("not yet");
		assertThat(retry.nextAttemptTime()).isEqualTo(start.plusSeconds(10));

		running.countDown();
		assertThat(blocked.result(Duration.ofSeconds(20))).isEqualTo("block on attempt 1");
		this.engines.clock.advance(Duration.ofSeconds(10));
		assertThat(async.result(Duration.ofSeconds(20))).isEqualTo("async on attempt 2");
	}

}
