package dev.durable.workflow.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowAlreadyStartedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.QueueInfo;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.queue.QueueFlights.FlightWorkflow;
import dev.durable.workflow.queue.QueueFlights.Trip;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Starts into a flow-control queue: the run is stored at once (visible, its workflow id
 * taken, deduplicated) but runs only once admitted; bad queue options change nothing; the
 * read model.
 */
class QueueStartTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	private QueueFlights flights;

	private WorkflowEngine node(QueueDefinition queue) {
		if (this.flights == null) {
			this.flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		}
		return this.engines.start(QueueFlights.node(this.engines.builder(), this.flights, "n", queue));
	}

	/** A flight that waits for the signal open. */
	private static final Trip GATED = new Trip(null, 0, true);

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
		WorkflowHandle<String> first = engine.client().start(FlightWorkflow::run, GATED, inQueue("q-first", "gate"));
		WorkflowHandle<String> second = engine.client().start(FlightWorkflow::run, GATED, inQueue("q-second", "gate"));
		await().until(() -> first.describe().workflowTasks() == 1);
		// the second is open and visible, but waits: no task ran, nobody owns it
		assertThat(second.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(second.describe().workflowTasks()).isZero();
		assertThat(second.describe().taskAttempts()).isZero();
		assertThat(state(second)).isEqualTo("WAITING");
		// a signal to the waiting run is kept, and does not make it run past the limit
		second.signal("open", null);
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(second.describe().workflowTasks()).isZero();
		assertThat(engine.queues()).singleElement().satisfies((info) -> {
			assertThat(info.definition()).isEqualTo(QueueDefinition.named("gate").withConcurrency(1));
			assertThat(info.waitingWorkflows()).isEqualTo(1);
			assertThat(info.runningWorkflows()).isEqualTo(1);
			assertThat(info.oldestWaitingSince()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
		});

		first.signal("open", null);
		assertThat(first.result(Duration.ofSeconds(10))).isEqualTo("q-first@n");
		// its slot is free: the second runs, with the signal it got while it waited
		assertThat(second.result(Duration.ofSeconds(10))).isEqualTo("q-second@n");
		await().until(() -> engine.queues().get(0).running() == 0);
		assertThat(engine.queues().get(0).depth()).isZero();
		assertThat(engine.queues().get(0).oldestWaitingSince()).isNull();
		Engines.assertReplays(engine, second.runId());
	}

	@Test
	void theSameWorkflowIdOrRequestIdStartedTwiceIntoTheQueueIsOneRun() {
		WorkflowEngine engine = node(QueueDefinition.named("dedup").withConcurrency(1));
		WorkflowHandle<String> blocker = engine.client().start(FlightWorkflow::run, GATED, inQueue("blocker", "dedup"));
		WorkflowHandle<String> once = engine.client().start(FlightWorkflow::run, GATED, inQueue("once", "dedup"));
		assertThatThrownBy(() -> engine.client().start(FlightWorkflow::run, GATED, inQueue("once", "dedup")))
			.isInstanceOf(WorkflowAlreadyStartedException.class);
		StartOptions retried = StartOptions.builder().workflowId("retried").requestId("req-1").queue("dedup").build();
		WorkflowHandle<String> a = engine.client().start(FlightWorkflow::run, GATED, retried);
		WorkflowHandle<String> b = engine.client().start(FlightWorkflow::run, GATED, retried);
		assertThat(b.runId()).isEqualTo(a.runId());
		assertThat(this.engines.count("queued_run")).isEqualTo(3);
		assertThat(this.engines.count("workflow_run")).isEqualTo(3);

		List.of(blocker, once, a).forEach((handle) -> handle.signal("open", null));
		assertThat(blocker.result(Duration.ofSeconds(10))).isEqualTo("blocker@n");
		assertThat(once.result(Duration.ofSeconds(10))).isEqualTo("once@n");
		assertThat(a.result(Duration.ofSeconds(10))).isEqualTo("retried@n");
	}

	@Test
	void badQueueOptionsAreRefusedAndChangeNothing() {
		WorkflowEngine engine = node(QueueDefinition.named("declared"));
		assertThatThrownBy(() -> engine.client().start(FlightWorkflow::run, GATED, inQueue("w1", "undeclared")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("No node declared the queue 'undeclared'");
		assertThatThrownBy(() -> engine.client().start(FlightWorkflow::run, GATED, inQueue("w2", "not a name")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("not a queue name");
		assertThatThrownBy(() -> inQueue("w3", " ")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("blank");
		assertThatThrownBy(() -> engine.client()
			.start("queue-flight", GATED, StartOptions.builder().workflowId("w4").partitionKey("p").build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("needs a queue");
		assertThatThrownBy(() -> engine.client()
			.start("queue-flight", GATED, StartOptions.builder().workflowId("w5").priority(3).build()))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("needs a queue");
		assertThatThrownBy(() -> engine.client()
			.start("queue-flight", GATED,
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
		WorkflowHandle<String> blocker = engine.client()
			.start(FlightWorkflow::run, GATED, inQueue("sws-blocker", "sws"));
		WorkflowHandle<Object> started = engine.client()
			.signalWithStart("queue-flight", GATED, inQueue("sws-1", "sws"), "open", null);
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(engine.client().handle("sws-1").describe().workflowTasks()).isZero();
		blocker.signal("open", null);
		assertThat(started.result(String.class)).isEqualTo("sws-1@n");
	}

	@Test
	void aRunTerminatedWhileItWaitsLeavesTheQueue() {
		WorkflowEngine engine = node(QueueDefinition.named("leave").withConcurrency(1));
		WorkflowHandle<String> blocker = engine.client().start(FlightWorkflow::run, GATED, inQueue("stays", "leave"));
		WorkflowHandle<String> leaving = engine.client().start(FlightWorkflow::run, GATED, inQueue("leaves", "leave"));
		await().until(() -> blocker.describe().workflowTasks() == 1);
		leaving.terminate("not needed");
		assertThat(leaving.describe().status()).isEqualTo(WorkflowStatus.TERMINATED);
		assertThat(engine.queues().get(0).waitingWorkflows()).isZero();
		assertThat(engine.queues().get(0).runningWorkflows()).isEqualTo(1);
		blocker.signal("open", null);
		assertThat(blocker.result(Duration.ofSeconds(10))).isEqualTo("stays@n");
		this.engines.clock.advance(Duration.ofSeconds(1));
		await().until(() -> engine.queues().get(0).running() == 0);
		assertThat(this.flights.count("#.workflow_id = 'leaves'")).as("never admitted").isZero();
	}

	@Test
	void nodesDeclareTheirQueuesAtStartTheLastOneWins() {
		node(QueueDefinition.named("shared").withConcurrency(1));
		WorkflowEngine later = node(
				QueueDefinition.named("shared").withConcurrency(4).withRateLimit(2, Duration.ofMinutes(1)));
		assertThat(later.queues()).extracting(QueueInfo::definition)
			.containsExactly(
					QueueDefinition.named("shared").withConcurrency(4).withRateLimit(2, Duration.ofMinutes(1)));
	}

}
