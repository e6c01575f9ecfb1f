package dev.durable.workflow.engine;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.UnknownWorkflowTypeException;
import dev.durable.workflow.client.WorkflowExecution;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowFilter;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.client.schedule.ScheduleSummary;
import dev.durable.workflow.internal.worker.Polls;
import dev.durable.workflow.payload.EncodedValue;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Namespaces sharing one schema: nodes of namespace {@code alpha} and of namespace
 * {@code beta}, registering workflow types, activities and task queues of the same names,
 * each see and touch only the runs, activities, schedules and nodes of their own
 * namespace.
 */
class NamespaceIsolationTest {

	private final Engines engines = new Engines();

	@BeforeEach
	void reset() {
		Recorder.CALLS.clear();
		Gpu.CALLS.clear();
	}

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Remembers which node ran each step. */
	@Activity
	public static class Recorder {

		static final Map<String, List<String>> CALLS = new ConcurrentHashMap<>();

		private final String node;

		public Recorder(String node) {
			this.node = node;
		}

		public String record(String workflowId, String step) {
			CALLS.computeIfAbsent(workflowId + "/" + step, (k) -> new CopyOnWriteArrayList<>()).add(this.node);
			return step + "@" + this.node;
		}

	}

	/** One step, a long sleep, another step. */
	@Workflow("ns-sleepy")
	public static class SleepyWorkflow {

		private final Recorder recorder;

		public SleepyWorkflow(Recorder recorder) {
			this.recorder = recorder;
		}

		@WorkflowRun
		public String run(String id) {
			String before = this.recorder.record(id, "before");
			Workflows.sleep(Duration.ofDays(30));
			return before + " " + this.recorder.record(id, "after");
		}

	}

	/** Waits for a signal and returns it. */
	@Workflow(value = "ns-waiter", receives = { "go" })
	public static class WaiterWorkflow {

		@WorkflowRun
		public String run() {
			return Workflows.receive("go", String.class);
		}

	}

	/** Returns at once. */
	@Workflow("ns-quick")
	public static class QuickWorkflow {

		@WorkflowRun
		public String run(String input) {
			return input;
		}

	}

	/** A type served by name. */
	@Workflow("ns-typed")
	public static class TypedWorkflow {

		@WorkflowRun
		public String run(EncodedValue input) {
			return "typed";
		}

	}

	/** Runs every type no named workflow of its node has. */
	@Workflow(value = "ns-catch-all", dynamic = true)
	public static class CatchAllWorkflow {

		@WorkflowRun
		public String run(EncodedValue input) {
			return "dynamic " + Workflows.info().workflowType();
		}

	}

	/** An activity on the task queue "ns-gpu". */
	@Activity
	public interface GpuActivities {

		@ActivityMethod(taskQueue = "ns-gpu")
		String render(String scene);

	}

	public static class Gpu implements GpuActivities {

		static final Map<String, List<String>> CALLS = new ConcurrentHashMap<>();

		private final String node;

		public Gpu(String node) {
			this.node = node;
		}

		@Override
		public String render(String scene) {
			CALLS.computeIfAbsent(scene, (k) -> new CopyOnWriteArrayList<>()).add(this.node);
			return scene + " rendered on " + this.node;
		}

	}

	@Workflow("ns-render")
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

	private WorkflowEngine.Builder in(String namespace) {
		return this.engines.builder().namespace(namespace);
	}

	/**
	 * A node of the namespace serving the common types, its activities recording the
	 * node's name.
	 */
	private WorkflowEngine node(String namespace, String name) {
		return this.engines
			.start(in(namespace).register(SleepyWorkflow.class, WaiterWorkflow.class, QuickWorkflow.class)
				.registerActivities(new Recorder(name)));
	}

	private static String namespaceOf(UUID runId, Engines engines) {
		return engines.jdbc()
			.queryForObject("SELECT namespace FROM " + engines.schema + ".workflow_run WHERE run_id = ?", String.class,
					runId);
	}

	private UUID ownerOf(UUID runId) {
		return this.engines.jdbc()
			.queryForObject("SELECT owner_node FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
					UUID.class, runId);
	}

	@Test
	void aRunReleasedByItsNodesShutdownIsTakenOverByANodeOfItsNamespaceOnly() {
		WorkflowEngine alpha1 = node("alpha", "alpha-1");
		WorkflowHandle<String> handle = alpha1.client()
			.start(SleepyWorkflow::run, "sleeper", StartOptions.withId("sleeper"));
		await().until(() -> this.engines.count("timer") == 1);
		// a node of beta serving the same type and activity names; its poll rounds are
		// the test's
		WorkflowEngine beta = this.engines.start(in("beta").pollInterval(Duration.ofHours(1))
			.register(SleepyWorkflow.class)
			.registerActivities(new Recorder("beta")));
		alpha1.shutdown(); // releases the run
		this.engines.clock.advance(Duration.ofDays(31)); // its timer is due

		Polls.pollOnce(beta);
		Polls.pollOnce(beta);
		assertThat(ownerOf(handle.runId())).as("owner after beta's claims").isNull();

		WorkflowEngine alpha2 = node("alpha", "alpha-2");
		assertThat(alpha2.client().handle("sleeper", String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("before@alpha-1 after@alpha-2");
		assertThat(Recorder.CALLS.get("sleeper/after")).containsExactly("alpha-2");
		assertThat(Recorder.CALLS.get("sleeper/before")).containsExactly("alpha-1");
	}

	@Test
	void theSameWorkflowIdIsOpenInBothAndMessagesByIdReachOnlyTheirOwnNamespace() {
		WorkflowEngine alpha = node("alpha", "alpha");
		WorkflowEngine beta = node("beta", "beta");
		WorkflowHandle<String> inAlpha = alpha.client().start(WaiterWorkflow::run, StartOptions.withId("shared"));
		WorkflowHandle<String> inBeta = beta.client().start(WaiterWorkflow::run, StartOptions.withId("shared"));
		assertThat(inAlpha.runId()).isNotEqualTo(inBeta.runId());
		assertThat(namespaceOf(inAlpha.runId(), this.engines)).isEqualTo("alpha");
		assertThat(namespaceOf(inBeta.runId(), this.engines)).isEqualTo("beta");

		// describe by id
		assertThat(alpha.client().handle("shared").describe().runId()).isEqualTo(inAlpha.runId());
		assertThat(beta.client().handle("shared").describe().runId()).isEqualTo(inBeta.runId());

		// a signal by id
		alpha.client().handle("shared").signal("go", "to alpha");
		assertThat(inAlpha.result(Duration.ofSeconds(20))).isEqualTo("to alpha");
		assertThat(beta.client().handle("shared").describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		// a cancel by id
		WorkflowHandle<String> again = alpha.client().start(WaiterWorkflow::run, StartOptions.withId("shared"));
		beta.client().handle("shared").cancel("beta only");
		assertThatThrownBy(() -> inBeta.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class);
		assertThat(beta.client().handle("shared").describe().status()).isEqualTo(WorkflowStatus.CANCELED);
		assertThat(alpha.client().handle("shared").describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		alpha.client().handle("shared").signal("go", "again");
		assertThat(again.result(Duration.ofSeconds(20))).isEqualTo("again");

		// listings and counts
		assertThat(alpha.client().list(WorkflowFilter.all(), 100, null).executions())
			.extracting(WorkflowExecution::runId)
			.containsExactlyInAnyOrder(inAlpha.runId(), again.runId());
		assertThat(beta.client().list(WorkflowFilter.all(), 100, null).executions())
			.extracting(WorkflowExecution::runId)
			.containsExactly(inBeta.runId());
		assertThat(beta.client().count(WorkflowFilter.all())).isEqualTo(1);
	}

	@Test
	void aHandlePinnedToAnotherNamespacesRunFindsNothing() {
		WorkflowEngine alpha = node("alpha", "alpha");
		WorkflowEngine beta = node("beta", "beta");
		WorkflowHandle<String> inBeta = beta.client().start(WaiterWorkflow::run, StartOptions.withId("pinned"));
		alpha.client().start(WaiterWorkflow::run, StartOptions.withId("pinned"));

		assertThatThrownBy(() -> alpha.client().handle("pinned", inBeta.runId()))
			.isInstanceOf(WorkflowNotFoundException.class);
		assertThat(beta.client().handle("pinned", inBeta.runId()).describe().status())
			.isEqualTo(WorkflowStatus.RUNNING);
	}

	@Test
	void aStartFailsForATypeOnlyAnotherNamespacesNodesServe() {
		this.engines.start(in("beta").register(TypedWorkflow.class));
		WorkflowEngine alphaClient = this.engines.start(in("alpha").worker(false));

		assertThatThrownBy(() -> alphaClient.client().start("ns-typed", "x", StartOptions.withId("typed-1")))
			.isInstanceOf(UnknownWorkflowTypeException.class);
		assertThat(this.engines.count("workflow_run")).isZero();
	}

	@Test
	void aDynamicWorkflowTakesTheTypesNoNodeOfItsOwnNamespaceServesByName() {
		// beta serves the type by name; in alpha only the dynamic workflow can run it
		this.engines.start(in("beta").register(TypedWorkflow.class));
		this.engines.start(in("alpha").register(CatchAllWorkflow.class));
		WorkflowEngine alphaClient = this.engines.start(in("alpha").worker(false));

		WorkflowHandle<Object> handle = alphaClient.client().start("ns-typed", "x", StartOptions.withId("typed-2"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("dynamic ns-typed");
	}

	@Test
	void aDynamicWorkflowAdmitsFromAQueueTheTypesNoNodeOfItsOwnNamespaceServesByName() {
		this.engines.start(in("beta").register(TypedWorkflow.class).queue(QueueDefinition.named("gate")));
		this.engines.start(in("alpha").register(CatchAllWorkflow.class).queue(QueueDefinition.named("gate")));
		WorkflowEngine alphaClient = this.engines.start(in("alpha").worker(false));

		WorkflowHandle<Object> handle = alphaClient.client()
			.start("ns-typed", "x", StartOptions.builder().workflowId("typed-3").queue("gate").build());
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("dynamic ns-typed");
	}

	@Test
	void theStatsListOnlyTheNodesOfTheirNamespace() {
		WorkflowEngine alpha = node("alpha", "alpha");
		WorkflowEngine beta = node("beta", "beta");

		assertThat(alpha.stats(Duration.ofMinutes(5)).nodes()).extracting(EngineStats.Node::nodeId)
			.containsExactly(alpha.nodeId());
		assertThat(beta.stats("ns-sleepy", Duration.ofMinutes(5)).nodes()).extracting(EngineStats.Node::nodeId)
			.containsExactly(beta.nodeId());
	}

	@Test
	void retentionDeletesOnlyTheClosedRunsOfItsNamespace() {
		WorkflowEngine alpha = this.engines
			.start(in("alpha").register(QuickWorkflow.class).retention(Duration.ofDays(1)));
		WorkflowEngine beta = this.engines
			.start(in("beta").register(QuickWorkflow.class).retention(Duration.ofDays(30)));
		assertThat(alpha.client().start(QuickWorkflow::run, "a", StartOptions.withId("kept")).result()).isEqualTo("a");
		assertThat(beta.client().start(QuickWorkflow::run, "b", StartOptions.withId("kept")).result()).isEqualTo("b");
		this.engines.clock.advance(Duration.ofDays(2));

		assertThat(EngineInternals.node(alpha).retainOnce()).as("runs alpha's retention deleted").isEqualTo(1);
		assertThat(beta.client().handle("kept").describe().status()).isEqualTo(WorkflowStatus.COMPLETED);
		assertThat(beta.client().count(WorkflowFilter.all())).isEqualTo(1);
		assertThat(alpha.client().count(WorkflowFilter.all())).isZero();
	}

	@Test
	void housekeepingForgetsOnlyTheLongDeadNodesOfItsNamespace() {
		// a run of alpha closed two days ago, past alpha's retention: its deletion marks
		// the end of
		// the housekeeping round that a node runs first thing, right after forgetting
		// dead nodes
		WorkflowEngine alpha0 = this.engines.start(in("alpha").register(QuickWorkflow.class));
		assertThat(alpha0.client().start(QuickWorkflow::run, "a", StartOptions.withId("old")).result()).isEqualTo("a");
		alpha0.shutdown();
		// beta's node heartbeats every 20 minutes and counts as dead after an hour
		WorkflowEngine beta = this.engines.start(in("beta").register(QuickWorkflow.class)
			.heartbeatInterval(Duration.ofMinutes(20))
			.deadAfter(Duration.ofHours(1)));
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".node SET last_heartbeat = now() - interval '10 minutes'"
					+ " WHERE node_id = ?", beta.nodeId());
		this.engines.clock.advance(Duration.ofDays(2));

		// alpha's nodes count a node as dead after a second: by their reckoning beta's is
		// long dead
		this.engines.start(in("alpha").register(QuickWorkflow.class).retention(Duration.ofDays(1)));
		await().until(() -> this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".workflow_run WHERE namespace = 'alpha'",
					Integer.class) == 0);
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".node WHERE node_id = ?", Integer.class,
					beta.nodeId()))
			.as("beta's node row")
			.isEqualTo(1);
	}

	@Test
	void aTaskQueueActivityIsNeitherRunByNorDueThroughAnotherNamespacesWorkers() {
		WorkflowEngine alpha = this.engines.start(in("alpha").register(RenderWorkflow.class));
		this.engines
			.start(in("beta").runWorkflows(false).activityTaskQueues("ns-gpu").registerActivities(new Gpu("beta")));
		WorkflowHandle<String> handle = alpha.client().start(RenderWorkflow::run, "scene", StartOptions.withId("r"));
		await().until(() -> this.engines.count("activity") == 1 && EngineInternals.node(alpha).isIdle()
				&& handle.describe().workflowTasks() == 1);

		// no node of alpha serves the queue: nothing of alpha's can run now (the test
		// kit's time
		// skipping asks this)
		assertThat(alpha.quiescence().anyDue(this.engines.clock.instant())).isFalse();

		this.engines
			.start(in("alpha").runWorkflows(false).activityTaskQueues("ns-gpu").registerActivities(new Gpu("alpha")));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("scene rendered on alpha");
		assertThat(Gpu.CALLS.get("scene")).containsExactly("alpha");
	}

	@Test
	void schedulesAreOnesOwnNamespacesAndStartRunsInIt() {
		WorkflowEngine alpha = node("alpha", "alpha");
		WorkflowEngine beta = node("beta", "beta");
		alpha.client()
			.schedules()
			.create("nightly", Schedule.of(ScheduleSpec.every(Duration.ofHours(1)),
					ScheduleAction.startWorkflow(QuickWorkflow::run, "from alpha")));
		beta.client()
			.schedules()
			.create("nightly", Schedule.of(ScheduleSpec.every(Duration.ofDays(1)),
					ScheduleAction.startWorkflow(QuickWorkflow::run, "from beta")));
		assertThat(alpha.client().schedules().list()).extracting(ScheduleSummary::spec)
			.containsExactly(ScheduleSpec.every(Duration.ofHours(1)));

		ScheduleActionResult fired = alpha.client().schedules().trigger("nightly");
		assertThat(alpha.client().handle(fired.workflowId(), String.class).result(Duration.ofSeconds(20)))
			.isEqualTo("from alpha");
		assertThat(beta.client().count(WorkflowFilter.all())).isZero();

		// an hour on, alpha's schedule is due and beta's not: a round fires alpha's only
		this.engines.clock.advance(Duration.ofHours(1));
		EngineInternals.scheduleLoop(alpha).tick();
		await().until(() -> alpha.client().count(WorkflowFilter.all()) == 2);
		assertThat(beta.client().count(WorkflowFilter.all())).isZero();
		assertThat(beta.client().schedules().list()).singleElement()
			.satisfies((s) -> assertThat(s.spec()).isEqualTo(ScheduleSpec.every(Duration.ofDays(1))));
	}

}
