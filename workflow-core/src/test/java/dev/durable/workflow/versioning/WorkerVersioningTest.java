package dev.durable.workflow.versioning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.VersioningBehavior;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.BuildMoveReport;
import dev.durable.workflow.client.BuildStatus;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Two builds of one application on one database, as two engines with build ids: pinned
 * runs stay on the build that started them while the newest build takes new runs; ramping
 * sends a fixed share of new runs by workflow id; an auto-upgrading run moves to the
 * current build at its next task; a pinned run whose build has no live node shows why it
 * waits, and moves to another build only when its history replays there (by an operator,
 * or by the per-type policy); the drain status follows.
 */
class WorkerVersioningTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Steps {

		public String step(String name) {
			return name;
		}

	}

	/** Build 1.0 of "order": a step, a signal, another step. */
	@Workflow(value = "order", versioning = VersioningBehavior.PINNED)
	public static class OrderV1 {

		private final Steps steps;

		private boolean go;

		public OrderV1(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String id) {
			String a = this.steps.step("a-" + id);
			Workflows.await(() -> this.go);
			return "v1:" + a + "," + this.steps.step("b-" + id);
		}

		@SignalMethod
		public void go() {
			this.go = true;
		}

	}

	/** Build 2.0 of "order": the same commands (a compatible change of its result). */
	@Workflow(value = "order", versioning = VersioningBehavior.PINNED)
	public static class OrderV2 {

		private final Steps steps;

		private boolean go;

		public OrderV2(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String id) {
			String a = this.steps.step("a-" + id);
			Workflows.await(() -> this.go);
			return "v2:" + a + "," + this.steps.step("b-" + id);
		}

		@SignalMethod
		public void go() {
			this.go = true;
		}

	}

	/** Build 1.0 of "shipment". */
	@Workflow(value = "shipment", versioning = VersioningBehavior.PINNED)
	public static class ShipmentV1 {

		private final Steps steps;

		private boolean go;

		public ShipmentV1(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String id) {
			this.steps.step("pack-" + id);
			Workflows.await(() -> this.go);
			return "v1:" + this.steps.step("ship-" + id);
		}

		@SignalMethod
		public void go() {
			this.go = true;
		}

	}

	/**
	 * Build 2.0 of "shipment": an incompatible change (a step added after the first, with
	 * no {@code getVersion}).
	 */
	@Workflow(value = "shipment", versioning = VersioningBehavior.PINNED)
	public static class ShipmentV2 {

		private final Steps steps;

		private boolean go;

		public ShipmentV2(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String id) {
			this.steps.step("pack-" + id);
			this.steps.step("weigh-" + id);
			Workflows.await(() -> this.go);
			return "v2:" + this.steps.step("ship-" + id);
		}

		@SignalMethod
		public void go() {
			this.go = true;
		}

	}

	/** "counter", auto-upgrading: build 1.0. */
	@Workflow(value = "counter", versioning = VersioningBehavior.AUTO_UPGRADE)
	public static class CounterV1 {

		private int count;

		@WorkflowRun
		public String run(int until) {
			Workflows.await(() -> this.count >= until);
			return "v1:" + this.count;
		}

		@SignalMethod
		public void add() {
			this.count++;
		}

	}

	/** "counter", auto-upgrading: build 2.0. */
	@Workflow(value = "counter", versioning = VersioningBehavior.AUTO_UPGRADE)
	public static class CounterV2 {

		private int count;

		@WorkflowRun
		public String run(int until) {
			Workflows.await(() -> this.count >= until);
			return "v2:" + this.count;
		}

		@SignalMethod
		public void add() {
			this.count++;
		}

	}

	/** "leaf", a child: build 1.0. */
	@Workflow("leaf")
	public static class LeafV1 {

		@WorkflowRun
		public String run(String id) {
			return "v1:" + id;
		}

	}

	/** "leaf", a child: build 2.0. */
	@Workflow("leaf")
	public static class LeafV2 {

		@WorkflowRun
		public String run(String id) {
			return "v2:" + id;
		}

	}

	/** "parent", pinned: on a signal it runs a "leaf" child. Build 1.0. */
	@Workflow(value = "parent", versioning = VersioningBehavior.PINNED)
	public static class ParentV1 {

		private boolean go;

		@WorkflowRun
		public String run(String id) {
			Workflows.await(() -> this.go);
			return Workflows.startChild(LeafV1::run, id, null).result().get();
		}

		@SignalMethod
		public void go() {
			this.go = true;
		}

	}

	/** "parent", build 2.0. */
	@Workflow(value = "parent", versioning = VersioningBehavior.PINNED)
	public static class ParentV2 {

		private boolean go;

		@WorkflowRun
		public String run(String id) {
			Workflows.await(() -> this.go);
			return Workflows.startChild(LeafV2::run, id, null).result().get();
		}

		@SignalMethod
		public void go() {
			this.go = true;
		}

	}

	private WorkflowEngine.Builder build1() {
		return this.engines.builder()
			.buildId("1.0")
			.register(OrderV1.class, ShipmentV1.class, CounterV1.class, LeafV1.class, ParentV1.class)
			.registerActivities(new Steps());
	}

	private WorkflowEngine.Builder build2() {
		return this.engines.builder()
			.buildId("2.0")
			.register(OrderV2.class, ShipmentV2.class, CounterV2.class, LeafV2.class, ParentV2.class)
			.registerActivities(new Steps());
	}

	private static WorkflowHandle<Object> start(WorkflowEngine engine, String type, Object input, String id) {
		return engine.client().start(type, input, StartOptions.withId(id));
	}

	private static void awaitWaiting(WorkflowHandle<?> run, int tasks) {
		await().until(() -> run.describe().workflowTasks() >= tasks && run.describe().pendingActivities().isEmpty());
	}

	private static BuildStatus build(WorkflowEngine engine, String buildId) {
		return engine.client()
			.builds()
			.list()
			.stream()
			.filter((status) -> status.buildId().equals(buildId))
			.findFirst()
			.orElseThrow();
	}

	@Test
	void pinnedRunsStayOnTheirBuildWhileTheNewBuildTakesNewRuns() {
		WorkflowEngine one = this.engines.start(build1());
		WorkflowHandle<Object> old = start(one, "order", "o1", "order-1");
		awaitWaiting(old, 2);
		assertThat(old.describe().build().buildId()).isEqualTo("1.0");
		assertThat(old.describe().build().pinned()).isTrue();

		WorkflowEngine two = this.engines.start(build2());
		assertThat(two.client().builds().routing().currentBuild()).as("the newest build with a live node")
			.isEqualTo("2.0");
		// started through the old build's node: it goes to the current build all the same
		await().until(() -> "2.0".equals(one.client().builds().routing().currentBuild()));
		WorkflowHandle<Object> fresh = start(two, "order", "o2", "order-2");
		awaitWaiting(fresh, 2);
		fresh.signal("go", null);
		old.signal("go", null);
		assertThat(fresh.result(Duration.ofSeconds(20))).isEqualTo("v2:a-o2,b-o2");
		assertThat(old.result(Duration.ofSeconds(20))).as("the old run finished on its own build")
			.isEqualTo("v1:a-o1,b-o1");
		assertThat(fresh.describe().build().buildId()).isEqualTo("2.0");
		Engines.assertReplays(one, old.describe().runId());
		Engines.assertReplays(two, fresh.describe().runId());

		assertThat(build(two, "1.0").state()).isEqualTo(BuildStatus.State.DRAINED);
		assertThat(build(two, "2.0").state()).isEqualTo(BuildStatus.State.CURRENT);
		// the heartbeat records it
		await().until(() -> build(two, "2.0").lastTaskAt() != null);
	}

	@Test
	void rampingSendsAFixedShareOfNewRunsByWorkflowId() {
		WorkflowEngine one = this.engines.start(build1());
		// a build may ramp before its first node starts
		one.client().builds().setCurrent("1.0");
		one.client().builds().setRamping("2.0", 30);
		WorkflowEngine two = this.engines.start(build2());
		assertThat(one.client().builds().routing()).satisfies((routing) -> {
			assertThat(routing.currentBuild()).isEqualTo("1.0");
			assertThat(routing.chosen()).isTrue();
			assertThat(routing.rampingBuild()).isEqualTo("2.0");
			assertThat(routing.rampingPercent()).isEqualTo(30);
		});
		assertThat(build(one, "2.0").state()).isEqualTo(BuildStatus.State.RAMPING);
		List<WorkflowHandle<Object>> runs = new ArrayList<>();
		int ramped = 0;
		for (int i = 0; i < 40; i++) {
			String id = "ramp-" + i;
			runs.add(start((i % 2 == 0) ? one : two, "counter", 1, id));
			if (Math.floorMod(id.hashCode(), 100) < 30) {
				ramped++;
			}
		}
		assertThat(ramped).as("the sample has both kinds").isBetween(1, 39);
		for (WorkflowHandle<Object> run : runs) {
			run.signal("add", null);
		}
		int onTwo = 0;
		for (WorkflowHandle<Object> run : runs) {
			String result = (String) run.result(Duration.ofSeconds(20));
			boolean expectedOnTwo = Math.floorMod(run.workflowId().hashCode(), 100) < 30;
			assertThat(result).as(run.workflowId()).isEqualTo(expectedOnTwo ? "v2:1" : "v1:1");
			onTwo += expectedOnTwo ? 1 : 0;
		}
		assertThat(onTwo).isEqualTo(ramped);
		assertThatThrownBy(() -> one.client().builds().setRamping("2.0", 101))
			.isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void anAutoUpgradingRunMovesToTheCurrentBuildAtItsNextTask() {
		WorkflowEngine one = this.engines.start(build1());
		WorkflowHandle<Object> counter = start(one, "counter", 2, "counter-1");
		counter.signal("add", null);
		await().until(() -> counter.describe().workflowTasks() >= 2);
		assertThat(counter.describe().build().pinned()).isFalse();

		WorkflowEngine two = this.engines.start(build2());
		// the old node owns the run, live: once it sees the new current build it gives
		// the run up, and the new build's node takes it
		await().until(() -> !EngineInternals.node(one).routing().route().currentHere());
		assertThatThrownBy(() -> two.client().handle("counter-1", String.class).moveToBuild("2.0"))
			.as("only pinned runs move")
			.isInstanceOf(IllegalStateException.class);
		counter.signal("add", null);
		assertThat(counter.result(Duration.ofSeconds(20))).isEqualTo("v2:2");
		assertThat(counter.describe().build().buildId()).isEqualTo("2.0");
		Engines.assertReplays(two, counter.describe().runId());
	}

	@Test
	void aStrandedRunShowsWhyItWaitsAndMovesOnlyWhenItsHistoryReplays() {
		WorkflowEngine one = this.engines.start(build1());
		awaitWaiting(start(one, "order", "o3", "order-3"), 2);
		awaitWaiting(start(one, "shipment", "s3", "shipment-3"), 2);
		WorkflowEngine two = this.engines.start(build2());
		one.shutdown();
		// the handles of a live node (a stopped node's waiters hear of no close)
		WorkflowHandle<Object> order = two.client().handle("order-3", Object.class);
		WorkflowHandle<Object> shipment = two.client().handle("shipment-3", Object.class);

		assertThat(order.describe().build().waitingForBuild()).isTrue();
		assertThat(order.waitingOn()).extracting(RunWait::kind).contains(RunWait.Kind.BUILD);
		order.signal("go", null);
		shipment.signal("go", null);
		BuildStatus draining = build(two, "1.0");
		assertThat(draining.state()).isEqualTo(BuildStatus.State.DRAINING);
		assertThat(draining.liveNodes()).isZero();
		assertThat(draining.openPinnedRuns()).isEqualTo(2);
		assertThat(draining.strandedRuns()).isEqualTo(2);
		// nothing ran them meanwhile: the new build does not take the old build's runs
		assertThat(order.describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		assertThatThrownBy(() -> two.client().builds().moveRuns("1.0", "3.0", null, 10))
			.as("only a node of the target build replays on its code")
			.isInstanceOf(IllegalArgumentException.class);
		BuildMoveReport report = two.client().builds().moveRuns("1.0", "2.0", null, 10);
		assertThat(report.moved()).extracting(BuildMoveReport.MovedRun::workflowId).containsExactly("order-3");
		assertThat(report.refused()).singleElement().satisfies((refused) -> {
			assertThat(refused.workflowId()).isEqualTo("shipment-3");
			assertThat(refused.reason()).contains("Workflow task 2", "ACTIVITY_SCHEDULED");
		});
		assertThat(order.result(Duration.ofSeconds(20))).isEqualTo("v2:a-o3,b-o3");
		Engines.assertReplays(two, order.describe().runId());

		assertThat(shipment.describe().build().moveRefused()).contains("does not replay on build '2.0'");
		assertThat(shipment.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(build(two, "1.0").refusedMoves()).isEqualTo(1);
		shipment.terminate("incompatible");
		assertThat(build(two, "1.0").state()).isEqualTo(BuildStatus.State.DRAINED);
	}

	@Test
	void aPinnedRunWhoseNodeDiedWaitsForANodeOfItsBuild() {
		WorkflowEngine one = this.engines.start(build1());
		awaitWaiting(start(one, "order", "o4", "order-4"), 2);
		WorkflowEngine two = this.engines.start(build2());
		UUID dead = EngineInternals.node(one).nodeId();
		one.shutdown();
		// as if it had died: the run still names it as its owner, and its row is gone
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".workflow_run SET owner_node = ? WHERE workflow_id = 'order-4'",
					dead);
		WorkflowHandle<Object> order = two.client().handle("order-4", Object.class);
		order.signal("go", null);
		// a takeover is routed too: the live node of the other build does not claim it
		// (a claim would bump its epoch and take it from the dead node)
		String owner = "SELECT owner_node::text || '/' || epoch FROM " + this.engines.schema
				+ ".workflow_run WHERE workflow_id = 'order-4'";
		String before = this.engines.jdbc().queryForObject(owner, String.class);
		await().during(Duration.ofMillis(500))
			.until(() -> before.equals(this.engines.jdbc().queryForObject(owner, String.class)));
		assertThat(order.describe().workflowTasks()).isEqualTo(2);

		WorkflowEngine back = this.engines.start(build1());
		assertThat(back.client().handle("order-4", Object.class).result(Duration.ofSeconds(20)))
			.isEqualTo("v1:a-o4,b-o4");
		assertThat(two.client().builds().list()).extracting(BuildStatus::buildId).containsExactly("2.0", "1.0");
	}

	@Test
	void theTypesPolicyMovesStrandedRunsThatReplayByItself() {
		WorkflowEngine one = this.engines.start(build1());
		awaitWaiting(start(one, "order", "o5", "order-5"), 2);
		awaitWaiting(start(one, "shipment", "s5", "shipment-5"), 2);
		WorkflowEngine two = this.engines.start(build2().moveStrandedRunsAfter("order", Duration.ZERO)
			.moveStrandedRunsAfter("shipment", Duration.ZERO));
		one.shutdown();
		WorkflowHandle<Object> order = two.client().handle("order-5", Object.class);
		WorkflowHandle<Object> shipment = two.client().handle("shipment-5", Object.class);
		order.signal("go", null);
		shipment.signal("go", null);
		assertThat(order.result(Duration.ofSeconds(20))).isEqualTo("v2:a-o5,b-o5");
		await().until(() -> shipment.describe().build().moveRefused() != null);
		assertThat(shipment.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(shipment.waitingOn()).filteredOn((wait) -> wait.kind() == RunWait.Kind.BUILD)
			.singleElement()
			.satisfies((wait) -> assertThat(wait.detail()).contains("refused"));
	}

	@Test
	void aPinnedParentsChildStartsOnTheParentsBuild() {
		WorkflowEngine one = this.engines.start(build1());
		WorkflowHandle<Object> parent = start(one, "parent", "p1", "parent-1");
		await().until(() -> parent.describe().workflowTasks() >= 1);
		WorkflowEngine two = this.engines.start(build2());
		await().until(() -> !EngineInternals.node(one).routing().route().currentHere());
		parent.signal("go", null);
		assertThat(parent.result(Duration.ofSeconds(20))).as("the child ran the parent's build's code")
			.isEqualTo("v1:p1");
		// a new parent goes to the current build, and so does its child
		WorkflowHandle<Object> fresh = start(two, "parent", "p2", "parent-2");
		fresh.signal("go", null);
		assertThat(fresh.result(Duration.ofSeconds(20))).isEqualTo("v2:p2");
	}

	@Test
	void aQueuedRunAdmittedByANodeOfAnotherBuildRunsOnItsOwnBuild() {
		QueueDefinition queue = QueueDefinition.named("orders").withConcurrency(5);
		// only the old build's node declares the queue: it admits every run of it
		WorkflowEngine one = this.engines.start(build1().queue(queue));
		WorkflowEngine two = this.engines.start(build2());
		await().until(() -> !EngineInternals.node(one).routing().route().currentHere());
		WorkflowHandle<Object> queued = one.client()
			.start("order", "q1", StartOptions.builder().workflowId("queued-1").queue("orders").build());
		awaitWaiting(queued, 2);
		assertThat(queued.describe().build().buildId()).isEqualTo("2.0");
		queued.signal("go", null);
		assertThat(queued.result(Duration.ofSeconds(20))).as("run on the build it was started for")
			.isEqualTo("v2:a-q1,b-q1");
		assertThat(two.client().builds().routing().currentBuild()).isEqualTo("2.0");
	}

	@Test
	void aMoveFencesATaskOfTheOldBuildUnderWay() throws Exception {
		StallingHooks hooks = new StallingHooks();
		WorkflowEngine one = this.engines.start(build1().hooks(hooks));
		WorkflowHandle<Object> order = start(one, "order", "o6", "order-6");
		awaitWaiting(order, 2);
		WorkflowEngine two = this.engines.start(build2());
		// the old build's node takes the signal and its task's commit stalls
		hooks.stallCommits = true;
		order.signal("go", null);
		assertThat(hooks.commitStalled.await(20, TimeUnit.SECONDS)).isTrue();
		BuildMoveReport report = two.client().builds().moveRuns("1.0", "2.0", null, 10);
		assertThat(report.moved()).hasSize(1);
		hooks.release();
		// the old node's commit fails its compare-and-set; the new build runs the task
		assertThat(two.client().handle("order-6", Object.class).result(Duration.ofSeconds(20)))
			.isEqualTo("v2:a-o6,b-o6");
		Engines.assertReplays(two, order.describe().runId());
	}

	@Test
	void aStartOnAnUnversionedNodeStaysUnversioned() {
		WorkflowEngine plain = this.engines
			.start(this.engines.builder().register(CounterV1.class).registerActivities(new Steps()));
		WorkflowHandle<Object> counter = start(plain, "counter", 1, "counter-plain");
		counter.signal("add", null);
		assertThat(counter.result(Duration.ofSeconds(20))).isEqualTo("v1:1");
		assertThat(counter.describe().build()).isNull();
		assertThat(plain.client().builds().list()).isEmpty();
	}

}
