package dev.durable.workflow.taskqueue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.CancellationScope;
import dev.durable.workflow.Promise;
import dev.durable.workflow.RetryPolicy;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.TimeoutFailure;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Activities on task queues: written by the scheduling task's commit, claimed by the
 * nodes that serve the queue (worker-only nodes included), their outcomes handed to the
 * run through its inbox; timeouts, retries, cancellation and dead workers enforced across
 * nodes.
 */
class ActivityTaskQueueTest {

	private final Engines engines = new Engines();

	@BeforeEach
	void reset() {
		Gpu.CALLS.clear();
		Gpu.failuresLeft = 0;
		Gpu.block = null;
		Gpu.interrupted.set(false);
	}

	@AfterEach
	void close() {
		Gpu.release();
		this.engines.close();
	}

	/** Implemented only on the nodes that serve the "gpu" task queue. */
	@Activity
	public interface GpuActivities {

		@ActivityMethod(taskQueue = "gpu", initialInterval = "PT1S")
		String render(String scene);

		@ActivityMethod(taskQueue = "gpu", heartbeatTimeout = "PT2S", initialInterval = "PT1S")
		String slowRender(String scene);

	}

	public static class Gpu implements GpuActivities {

		static final Map<String, List<String>> CALLS = new ConcurrentHashMap<>();

		static volatile int failuresLeft;

		static volatile CountDownLatch block;

		static final AtomicBoolean interrupted = new AtomicBoolean();

		private final String node;

		public Gpu(String node) {
			this.node = node;
		}

		@Override
		public String render(String scene) {
			CALLS.computeIfAbsent(scene, (k) -> new CopyOnWriteArrayList<>()).add(this.node);
			if (failuresLeft > 0) {
				failuresLeft--;
				throw new IllegalStateException("GPU busy");
			}
			return scene + " rendered on " + this.node + " attempt " + ActivityContext.current().info().attempt();
		}

		@Override
		public String slowRender(String scene) {
			CALLS.computeIfAbsent(scene, (k) -> new CopyOnWriteArrayList<>()).add(this.node);
			CountDownLatch latch = block;
			if (latch != null && ActivityContext.current().info().attempt() == 1) {
				try {
					latch.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					interrupted.set(true);
					Thread.currentThread().interrupt();
					throw new IllegalStateException("interrupted");
				}
			}
			return scene + " slowly on " + this.node + " attempt " + ActivityContext.current().info().attempt();
		}

		static void release() {
			CountDownLatch latch = block;
			if (latch != null) {
				latch.countDown();
			}
		}

	}

	@Workflow("render")
	public static class RenderWorkflow {

		private final GpuActivities gpu;

		public RenderWorkflow(GpuActivities gpu) {
			this.gpu = gpu;
		}

		@WorkflowRun
		public String run(String scene) {
			return this.gpu.render(scene);
		}

	}

	@Workflow("slow-render")
	public static class SlowRenderWorkflow {

		private final GpuActivities gpu;

		public SlowRenderWorkflow(GpuActivities gpu) {
			this.gpu = gpu;
		}

		@WorkflowRun
		public String run(String scene) {
			return this.gpu.slowRender(scene);
		}

	}

	/** Waits for a signal, then cancels the scope of a running remote activity. */
	@Workflow(value = "cancel-render", receives = { "stop" })
	public static class CancelRenderWorkflow {

		@WorkflowRun
		public String run(String scene) {
			GpuActivities gpu = Workflows.activities(GpuActivities.class, ActivityOptions.builder().build());
			@SuppressWarnings("unchecked")
			Promise<String>[] rendered = new Promise[1];
			CancellationScope scope = Workflows
				.newCancellationScope(() -> rendered[0] = Workflows.async(() -> gpu.slowRender(scene)));
			scope.run();
			Workflows.receive("stop", String.class);
			scope.cancel("stopped");
			try {
				return rendered[0].get();
			}
			catch (ActivityFailure ex) {
				return "canceled: " + ex.getCause().getClass().getSimpleName();
			}
		}

	}

	/** An activity on a queue nobody serves, with a schedule-to-start timeout. */
	@Workflow("unserved")
	public static class UnservedWorkflow {

		@WorkflowRun
		public String run(String scene) {
			GpuActivities gpu = Workflows.activities(GpuActivities.class,
					ActivityOptions.builder()
						.taskQueue("nobody")
						.scheduleToStartTimeout(Duration.ofSeconds(5))
						.build());
			try {
				return gpu.render(scene);
			}
			catch (ActivityFailure ex) {
				TimeoutFailure timeout = (TimeoutFailure) ex.getCause();
				return "timed out: " + timeout.getTimeoutType();
			}
		}

	}

	private WorkflowEngine workflowNode() {
		return this.engines.start(this.engines.builder()
			.register(RenderWorkflow.class, SlowRenderWorkflow.class, CancelRenderWorkflow.class,
					UnservedWorkflow.class));
	}

	private WorkflowEngine gpuNode(String name) {
		return gpuNode(name, new StallingHooks());
	}

	private WorkflowEngine gpuNode(String name, StallingHooks hooks) {
		return this.engines.start(this.engines.builder()
			.runWorkflows(false)
			.activityTaskQueues("gpu")
			.registerActivities(new Gpu(name))
			.hooks(hooks));
	}

	@Test
	void aWorkerOnlyNodeRunsTheActivitiesOfItsTaskQueue() {
		WorkflowEngine workflows = workflowNode();
		gpuNode("gpu-1");
		WorkflowHandle<String> handle = workflows.client()
			.start(RenderWorkflow::run, "scene-1", StartOptions.withId("render-1"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("scene-1 rendered on gpu-1 attempt 1");
		assertThat(Gpu.CALLS.get("scene-1")).containsExactly("gpu-1");
		// the outcome went through the inbox and the run's own commit deleted what was
		// left
		assertThat(this.engines.count("activity")).isZero();
		assertThat(this.engines.count("inbox")).isZero();
		Engines.assertReplays(workflows, handle.runId());
	}

	@Test
	void aWorkerOnlyNodeRunsNoWorkflowAndTheWorkflowNodeNoActivityOfTheQueue() {
		WorkflowEngine workflows = workflowNode();
		WorkflowHandle<String> handle = workflows.client()
			.start(RenderWorkflow::run, "scene-2", StartOptions.withId("render-2"));
		await().until(() -> this.engines.count("activity") == 1);
		// no node serves the queue yet: the activity waits in its row
		assertThat(Gpu.CALLS).isEmpty();
		WorkflowEngine gpu = gpuNode("gpu-late");
		assertThat(gpu.settings().runsWorkflows()).isFalse();
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("scene-2 rendered on gpu-late attempt 1");
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT cardinality(served_types) FROM " + this.engines.schema + ".node WHERE node_id = ?",
					Integer.class, gpu.nodeId()))
			.isZero();
	}

	@Test
	void failedAttemptsAreRetriedWithTheirBackoffPersisted() {
		WorkflowEngine workflows = workflowNode();
		gpuNode("gpu-1");
		Gpu.failuresLeft = 2;
		WorkflowHandle<String> handle = workflows.client()
			.start(RenderWorkflow::run, "scene-3", StartOptions.withId("render-3"));
		await().until(() -> Gpu.CALLS.getOrDefault("scene-3", List.of()).size() == 1);
		// the retry waits in the row for its time (1 s initial interval, by the engine
		// clock)
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT attempt FROM " + this.engines.schema + ".activity", Integer.class) == 2);
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT state FROM " + this.engines.schema + ".activity", String.class))
			.isEqualTo("SCHEDULED");
		this.engines.clock.advance(Duration.ofSeconds(1));
		await().until(() -> Gpu.CALLS.get("scene-3").size() == 2);
		// the second failure recorded, with its retry time: a move of the clock before it
		// would count the 2 s backoff from the moved time
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT attempt FROM " + this.engines.schema + ".activity", Integer.class) == 3);
		this.engines.clock.advance(Duration.ofSeconds(2));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("scene-3 rendered on gpu-1 attempt 3");
		Engines.assertReplays(workflows, handle.runId());
	}

	@Test
	void anAttemptNobodyClaimsTimesOutScheduleToStart() {
		WorkflowEngine workflows = workflowNode();
		gpuNode("gpu-1"); // serves "gpu", not "nobody"
		WorkflowHandle<String> handle = workflows.client()
			.start(UnservedWorkflow::run, "scene-4", StartOptions.withId("unserved-1"));
		await().until(() -> this.engines.count("activity") == 1);
		this.engines.clock.advance(Duration.ofSeconds(4));
		// sweeps ran (a move of the clock asks for one, and the poll interval is 100 ms):
		// not yet due
		await().pollDelay(Duration.ofMillis(300)).until(() -> true);
		assertThat(this.engines.count("activity")).isEqualTo(1);
		this.engines.clock.advance(Duration.ofSeconds(2));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("timed out: SCHEDULE_TO_START");
		assertThat(Gpu.CALLS).isEmpty();
		Engines.assertReplays(workflows, handle.runId());
	}

	@Test
	void anAttemptThatStopsHeartbeatingTimesOutOnAnyNodeAndIsRetried() {
		WorkflowEngine workflows = workflowNode();
		gpuNode("gpu-1");
		Gpu.block = new CountDownLatch(1);
		WorkflowHandle<String> handle = workflows.client()
			.start(SlowRenderWorkflow::run, "scene-5", StartOptions.withId("slow-1"));
		await().until(() -> Gpu.CALLS.getOrDefault("scene-5", List.of()).size() == 1);
		// no heartbeat for 2 s: a sweep times the attempt out and schedules the retry (1
		// s backoff)
		this.engines.clock.advance(Duration.ofSeconds(3));
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT attempt FROM " + this.engines.schema + ".activity", Integer.class) == 2);
		// the worker finds the attempt's token gone and stops it
		await().untilTrue(Gpu.interrupted);
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("scene-5 slowly on gpu-1 attempt 2");
	}

	@Test
	void aCancelOfTheWorkflowReachesTheRemoteAttempt() {
		WorkflowEngine workflows = workflowNode();
		gpuNode("gpu-1");
		Gpu.block = new CountDownLatch(1);
		WorkflowHandle<String> handle = workflows.client()
			.start(CancelRenderWorkflow::run, "scene-6", StartOptions.withId("cancel-1"));
		await().until(() -> Gpu.CALLS.getOrDefault("scene-6", List.of()).size() == 1);
		handle.signal("stop", "now");
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("canceled: CanceledFailure");
		// the run's commit deleted the row: the worker stops the attempt
		await().untilTrue(Gpu.interrupted);
		assertThat(this.engines.count("activity")).isZero();
		Engines.assertReplays(workflows, handle.runId());
	}

	@Test
	void theAttemptOfADeadWorkerIsRetriedOnAnother() {
		WorkflowEngine workflows = workflowNode();
		StallingHooks stalled = new StallingHooks();
		gpuNode("gpu-dying", stalled);
		Gpu.block = new CountDownLatch(1);
		WorkflowHandle<String> handle = workflows.client()
			.start(SlowRenderWorkflow::run, "scene-7", StartOptions.withId("dead-1"));
		await().until(() -> Gpu.CALLS.getOrDefault("scene-7", List.of()).size() == 1);
		gpuNode("gpu-2");
		// the first worker stops heartbeating: after dead-after (1 s) a sweep retries its
		// attempt
		stalled.stallHeartbeats = true;
		await().atMost(Duration.ofSeconds(15))
			.until(() -> this.engines.jdbc()
				.queryForObject("SELECT attempt FROM " + this.engines.schema + ".activity", Integer.class) == 2);
		this.engines.clock.advance(Duration.ofSeconds(1));
		String result = handle.result(Duration.ofSeconds(20));
		assertThat(result).startsWith("scene-7 slowly on ").endsWith("attempt 2");
		// the dead worker's late outcome changes nothing: its token is gone
		stalled.release();
		Gpu.release();
		assertThat(handle.result(Duration.ofSeconds(1))).isEqualTo(result);
	}

	@Test
	void aFailureAfterTheLastAttemptFailsTheWorkflow() {
		WorkflowEngine workflows = this.engines.start(this.engines.builder().register(OneShotWorkflow.class));
		gpuNode("gpu-1");
		Gpu.failuresLeft = 5;
		WorkflowHandle<String> handle = workflows.client()
			.start(OneShotWorkflow::run, "scene-8", StartOptions.withId("one-shot-1"));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.hasRootCauseMessage("GPU busy");
		assertThat(Gpu.CALLS.get("scene-8")).hasSize(1);
	}

	@Workflow("one-shot")
	public static class OneShotWorkflow {

		@WorkflowRun
		public String run(String scene) {
			return Workflows
				.activities(GpuActivities.class,
						ActivityOptions.builder()
							.taskQueue("gpu")
							.retryPolicy(RetryPolicy.builder().maximumAttempts(1).build())
							.build())
				.render(scene);
		}

	}

}
