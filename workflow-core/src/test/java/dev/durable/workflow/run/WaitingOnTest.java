package dev.durable.workflow.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.Promise;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.RunWait;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code WorkflowHandle.waitingOn()}: each kind of wait of an open run, told by its rows
 * (an activity with its next attempt, a failing task's retry, a queue, a pause) and by
 * its code's state (a timer with its time, a child, a signal by name, a condition with
 * the line of its await), from the cached instance and from a replay alike.
 */
class WaitingOnTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Carrier {

		@ActivityMethod(initialInterval = "PT1H")
		public String book(String parcel) {
			throw new IllegalStateException("carrier offline");
		}

	}

	@Workflow("label")
	public static class Label {

		@WorkflowRun
		public String run(String parcel) {
			Workflows.sleep(Duration.ofDays(3));
			return parcel;
		}

	}

	/** Waits for everything at once. */
	@Workflow(value = "dispatch", receives = "pickup")
	public static class Dispatch {

		private final Carrier carrier;

		private boolean approved;

		public Dispatch(Carrier carrier) {
			this.carrier = carrier;
		}

		@WorkflowRun
		public String run(String parcel) {
			Promise<String> booked = Workflows.async(() -> this.carrier.book(parcel));
			Promise<Void> cooled = Workflows.newTimer(Duration.ofHours(2));
			Promise<String> label = Workflows.startChild(Label::run, parcel, ChildOptions.withId("label-" + parcel))
				.result();
			Promise<String> pickup = Workflows.async(() -> Workflows.receive("pickup", String.class));
			Workflows.await(() -> this.approved);
			return booked.get() + cooled.get() + label.get() + pickup.get();
		}

		@SignalMethod
		public void approve() {
			this.approved = true;
		}

	}

	@Test
	void eachKindOfWaitIsToldWithWhatItWaitsFor() throws IOException {
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().register(Dispatch.class, Label.class).registerActivities(new Carrier()));
		WorkflowHandle<String> dispatch = engine.client()
			.start(Dispatch::run, "p-1", StartOptions.withId("dispatch-1"));
		await().until(() -> dispatch.waitingOn()
			.stream()
			.anyMatch((w) -> w.kind() == RunWait.Kind.ACTIVITY && w.attempt() != null && w.attempt() == 2));

		List<RunWait> waits = dispatch.waitingOn();
		assertThat(waits).filteredOn((w) -> w.kind() == RunWait.Kind.ACTIVITY).singleElement().satisfies((w) -> {
			assertThat(w.name()).isEqualTo("book");
			assertThat(w.attempt()).isEqualTo(2);
			assertThat(w.until()).isEqualTo(engine.now().plus(Duration.ofHours(1)));
			assertThat(w.detail()).contains("carrier offline");
		});
		assertThat(waits).filteredOn((w) -> w.kind() == RunWait.Kind.TIMER)
			.extracting(RunWait::until)
			.containsExactly(this.engines.clock.instant().plus(Duration.ofHours(2)));
		assertThat(waits).filteredOn((w) -> w.kind() == RunWait.Kind.CHILD)
			.extracting(RunWait::name)
			.containsExactly("label-p-1");
		assertThat(waits).filteredOn((w) -> w.kind() == RunWait.Kind.SIGNAL)
			.extracting(RunWait::name)
			.containsExactly("pickup");
		int line = awaitLine();
		assertThat(waits).filteredOn((w) -> w.kind() == RunWait.Kind.CONDITION).singleElement().satisfies((w) -> {
			assertThat(w.name()).isEqualTo("Dispatch.run");
			assertThat(w.location()).isEqualTo("Dispatch.run(WaitingOnTest.java:" + line + ")");
		});

		// a node that does not hold the run tells the same from a replay
		WorkflowEngine other = this.engines.start(this.engines.builder()
			.register(Dispatch.class, Label.class)
			.registerActivities(new Carrier())
			.worker(false));
		assertThat(other.client().handle("dispatch-1").waitingOn()).hasSameElementsAs(waits);

		dispatch.pause("inspection");
		assertThat(dispatch.waitingOn()).first()
			.isEqualTo(new RunWait(RunWait.Kind.UNPAUSE, "unpause", null, null, null, "inspection"));
		dispatch.terminate("done");
		assertThat(dispatch.waitingOn()).isEmpty();
	}

	@Test
	void aRunInAQueueAndARunWhoseTaskFailsSaySo() {
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(Label.class, Broken.class)
			.queue(QueueDefinition.named("dock").withConcurrency(1)));
		engine.client()
			.start(Label::run, "first", StartOptions.builder().workflowId("in-dock-1").queue("dock").build());
		WorkflowHandle<String> second = engine.client()
			.start(Label::run, "second", StartOptions.builder().workflowId("in-dock-2").queue("dock").build());
		await().until(() -> !second.waitingOn().isEmpty());
		assertThat(second.waitingOn()).containsExactly(new RunWait(RunWait.Kind.QUEUE, "dock", null, null, null, null));
		// no task recorded its input yet: describe shows it; a run that ran a task does
		// not
		assertThat(second.describe().input()).isEqualTo("second");
		await().until(() -> engine.client().handle("in-dock-1").describe().workflowTasks() > 0);
		assertThat(engine.client().handle("in-dock-1").describe().input()).isNull();

		WorkflowHandle<String> broken = engine.client().start(Broken::run, StartOptions.withId("broken-1"));
		await().until(() -> broken.describe().taskFailure() != null);
		assertThat(broken.waitingOn()).singleElement().satisfies((w) -> {
			assertThat(w.kind()).isEqualTo(RunWait.Kind.TASK_RETRY);
			assertThat(w.attempt()).isEqualTo(2);
			assertThat(w.until()).isNotNull();
			assertThat(w.detail()).contains("not ready");
		});
	}

	/** The line of Dispatch's await, in this file. */
	private static int awaitLine() throws IOException {
		List<String> lines = Files.readAllLines(Path.of("src/test/java/dev/durable/workflow/run/WaitingOnTest.java"));
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).contains("Workflows.await(() -> this.approved);")) {
				return i + 1;
			}
		}
		throw new IllegalStateException("no await line");
	}

	@Workflow("broken")
	public static class Broken {

		@WorkflowRun
		public String run() {
			throw new IllegalStateException("not ready");
		}

	}

}
