package dev.durable.workflow;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Starts into a flow-control queue: the run is stored at once (visible, its workflow id taken,
 * deduplicated) but runs only once admitted; bad queue options change nothing; the read model.
 */
class QueueStartTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Activity
	public static class Greeter {

		public String greet(String name) {
			return "hello " + name;
		}

	}

	/** Waits for a go signal, then greets. */
	@Workflow("queue-gated")
	public static class GatedWorkflow {

		private final Greeter greeter;

		private boolean go;

		public GatedWorkflow(Greeter greeter) {
			this.greeter = greeter;
		}

		@WorkflowRun
		public String run(String name) {
			Workflows.await(() -> this.go);
			return this.greeter.greet(name);
		}

		@SignalMethod
		public void go() {
			this.go = true;
		}

	}

	private WorkflowEngine node(QueueDefinition queue) {
		return this.engines.start(this.engines.builder()
			.register(GatedWorkflow.class)
			.registerActivities(new Greeter())
			.queue(queue));
	}

	private static StartOptions inQueue(String workflowId, String queue) {
		return StartOptions.builder().workflowId(workflowId).queue(queue).build();
	}

	private String state(WorkflowHandle<?> handle) {
		return this.engines.jdbc()
			.queryForList("SELECT state FROM " + this.engines.schema + ".queued_run WHERE run_id = ?", String.class,
					handle.runId())
			.stream()
			.findFirst()
			.orElse("GONE");
	}

	@Test
	void aQueuedRunWaitsStoredAndRunsOnceAdmitted() {
		WorkflowEngine engine = node(QueueDefinition.named("gate").withConcurrency(1));
		WorkflowHandle<String> first = engine.client().start(GatedWorkflow::run, "first", inQueue("q-first", "gate"));
		WorkflowHandle<String> second = engine.client().start(GatedWorkflow::run, "second", inQueue("q-second", "gate"));
		await().until(() -> first.describe().workflowTasks() == 1);
		// the second is open and visible, but waits: no task ran, nobody owns it
		assertThat(second.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(second.describe().workflowTasks()).isZero();
		assertThat(second.describe().taskAttempts()).isZero();
		assertThat(state(second)).isEqualTo("WAITING");
		// a signal to the waiting run is kept, and does not make it run past the limit
		second.signal("go", null);
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(second.describe().workflowTasks()).isZero();
		assertThat(engine.queues()).singleElement().satisfies((info) -> {
			assertThat(info.definition()).isEqualTo(QueueDefinition.named("gate").withConcurrency(1));
			assertThat(info.waitingWorkflows()).isEqualTo(1);
			assertThat(info.runningWorkflows()).isEqualTo(1);
			assertThat(info.oldestWaitingSince()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
		});

		first.signal("go", null);
		assertThat(first.result(Duration.ofSeconds(10))).isEqualTo("hello first");
		// its slot is free: the second runs, with the signal it got while it waited
		assertThat(second.result(Duration.ofSeconds(10))).isEqualTo("hello second");
		await().until(() -> engine.queues().get(0).running() == 0);
		assertThat(engine.queues().get(0).depth()).isZero();
		assertThat(engine.queues().get(0).oldestWaitingSince()).isNull();
		Engines.assertReplays(engine, second.runId());
	}

	@Test
	void theSameWorkflowIdOrRequestIdStartedTwiceIntoTheQueueIsOneRun() {
		WorkflowEngine engine = node(QueueDefinition.named("dedup").withConcurrency(1));
		WorkflowHandle<String> blocker = engine.client().start(GatedWorkflow::run, "b", inQueue("blocker", "dedup"));
		WorkflowHandle<String> once = engine.client().start(GatedWorkflow::run, "x", inQueue("once", "dedup"));
		assertThatThrownBy(() -> engine.client().start(GatedWorkflow::run, "x", inQueue("once", "dedup")))
			.isInstanceOf(WorkflowAlreadyStartedException.class);
		StartOptions retried = StartOptions.builder().workflowId("retried").requestId("req-1").queue("dedup").build();
		WorkflowHandle<String> a = engine.client().start(GatedWorkflow::run, "r", retried);
		WorkflowHandle<String> b = engine.client().start(GatedWorkflow::run, "r", retried);
		assertThat(b.runId()).isEqualTo(a.runId());
		assertThat(this.engines.count("queued_run")).isEqualTo(3);
		assertThat(this.engines.count("workflow_run")).isEqualTo(3);

		List.of(blocker, once, a).forEach((handle) -> handle.signal("go", null));
		assertThat(blocker.result(Duration.ofSeconds(10))).isEqualTo("hello b");
		assertThat(once.result(Duration.ofSeconds(10))).isEqualTo("hello x");
		assertThat(a.result(Duration.ofSeconds(10))).isEqualTo("hello r");
	}

	@Test
	void badQueueOptionsAreRefusedAndChangeNothing() {
		WorkflowEngine engine = node(QueueDefinition.named("declared"));
		assertThatThrownBy(() -> engine.client().start(GatedWorkflow::run, "x", inQueue("w1", "undeclared")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("No node declared the queue 'undeclared'");
		assertThatThrownBy(() -> engine.client().start(GatedWorkflow::run, "x", inQueue("w2", "not a name")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("not a queue name");
		assertThatThrownBy(() -> inQueue("w3", " ")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("blank");
		assertThatThrownBy(() -> engine.client()
			.start("queue-gated", "x", StartOptions.builder().workflowId("w4").partitionKey("p").build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("needs a queue");
		assertThatThrownBy(() -> engine.client()
			.start("queue-gated", "x", StartOptions.builder().workflowId("w5").priority(3).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("needs a queue");
		assertThatThrownBy(() -> engine.client()
			.start("queue-gated", "x",
					StartOptions.builder().workflowId("w6").queue("declared").partitionKey("").build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("partition key");
		assertThat(this.engines.count("workflow_run")).isZero();
		assertThat(this.engines.count("queued_run")).isZero();
		assertThat(this.engines.count("visibility")).isZero();
	}

	@Test
	void signalWithStartIntoAQueueWaitsWithItsSignal() {
		WorkflowEngine engine = node(QueueDefinition.named("sws").withConcurrency(1));
		WorkflowHandle<String> blocker = engine.client().start(GatedWorkflow::run, "b", inQueue("sws-blocker", "sws"));
		WorkflowHandle<Object> started = engine.client()
			.signalWithStart("queue-gated", "s", inQueue("sws-1", "sws"), "go", null);
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(engine.client().handle("sws-1").describe().workflowTasks()).isZero();
		blocker.signal("go", null);
		assertThat(started.result(String.class)).isEqualTo("hello s");
	}

	@Test
	void nodesDeclareTheirQueuesAtStartTheLastOneWins() {
		node(QueueDefinition.named("shared").withConcurrency(1));
		WorkflowEngine later = node(QueueDefinition.named("shared").withConcurrency(4).withRateLimit(2,
				Duration.ofMinutes(1)));
		assertThat(later.queues()).extracting(QueueInfo::definition)
			.containsExactly(QueueDefinition.named("shared").withConcurrency(4).withRateLimit(2, Duration.ofMinutes(1)));
	}

}
