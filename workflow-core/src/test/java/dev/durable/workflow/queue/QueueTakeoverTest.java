package dev.durable.workflow.queue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.queue.QueueFlights.FlightWorkflow;
import dev.durable.workflow.queue.QueueFlights.Trip;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node that dies holding admitted runs: another node takes them over by the ordinary
 * claim and finishes them, and they keep their slots until they close, so the queue never
 * runs more than its limit meanwhile.
 */
class QueueTakeoverTest {

	private final Engines engines = new Engines();

	private final StallingHooks frozen = new StallingHooks();

	private volatile boolean sampling = true;

	@AfterEach
	void close() {
		this.sampling = false;
		this.frozen.release();
		this.engines.close();
	}

	@Test
	void aDeadNodesAdmittedRunsAreTakenOverAndKeepTheirSlots() throws Exception {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		QueueDefinition pair = QueueDefinition.named("pair").withConcurrency(2);
		WorkflowEngine a = this.engines
			.start(QueueFlights.node(this.engines.builder(), flights, "a", pair).hooks(this.frozen));
		WorkflowHandle<String> first = a.client()
			.start(FlightWorkflow::run, new Trip(null, 0, true), QueueFlights.into("pair", "first").build());
		WorkflowHandle<String> second = a.client()
			.start(FlightWorkflow::run, new Trip(null, 0, true), QueueFlights.into("pair", "second").build());
		WorkflowHandle<String> third = a.client()
			.start(FlightWorkflow::run, new Trip(null, 0), QueueFlights.into("pair", "third").build());
		org.awaitility.Awaitility.await()
			.until(() -> first.describe().workflowTasks() == 1 && second.describe().workflowTasks() == 1);
		AtomicLong mostHeld = sampleHeldSlots();

		// a freezes: no heartbeat, no commit; b comes and, once a is stale, may take its
		// runs
		this.frozen.stallHeartbeats = true;
		this.frozen.stallCommits = true;
		WorkflowEngine b = this.engines.start(QueueFlights.node(this.engines.builder(), flights, "b", pair));
		Thread.sleep(2000);
		assertThat(third.describe().workflowTasks()).as("the dead node's runs still hold both slots").isZero();

		b.client().handle("first").signal("open", null);
		b.client().handle("second").signal("open", null);
		// the results through b: a, frozen, fenced itself and is not told when runs close
		assertThat(b.client().handle("first", String.class).result(Duration.ofSeconds(20))).isEqualTo("first@b");
		assertThat(b.client().handle("second", String.class).result(Duration.ofSeconds(20))).isEqualTo("second@b");
		assertThat(b.client().handle("third", String.class).result(Duration.ofSeconds(20))).isEqualTo("third@b");
		assertThat(mostHeld.get()).as("slots held at once").isEqualTo(2);
		assertThat(b.queues()).singleElement().satisfies((info) -> assertThat(info.running()).isZero());
		Engines.assertReplays(b, first.runId());
	}

	/**
	 * Samples, until the test ends, how many admitted runs of the queue are open at once.
	 */
	private AtomicLong sampleHeldSlots() {
		AtomicLong most = new AtomicLong();
		String held = "SELECT count(*) FROM " + this.engines.schema + ".queued_run q JOIN " + this.engines.schema
				+ ".workflow_run r ON r.run_id = q.run_id WHERE q.state = 'ADMITTED' AND r.status = 'RUNNING'";
		Thread.ofPlatform().daemon().start(() -> {
			while (this.sampling) {
				try {
					most.accumulateAndGet(this.engines.jdbc().queryForObject(held, Long.class), Math::max);
					Thread.sleep(10);
				}
				catch (InterruptedException | RuntimeException ex) {
					return;
				}
			}
		});
		return most;
	}

}
