package dev.durable.workflow.queue;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.queue.QueueFlights.FlightWorkflow;
import dev.durable.workflow.queue.QueueFlights.Trip;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admission rounds are asked for, not polled: a start hands its queue to the local
 * dispatcher or notifies the other nodes, and the close of a run a node admitted hands
 * its slot on at once. The workers here poll once an hour, and the clock does not move.
 */
class QueueWakeupTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void startsAndClosesWakeTheDispatchersWithoutAPoll() {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		QueueDefinition one = QueueDefinition.named("one").withConcurrency(1);
		WorkflowEngine worker = this.engines
			.start(QueueFlights.node(this.engines.builder(), flights, "worker", one).pollInterval(Duration.ofHours(1)));
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false).queue(one));
		// from another node: a notification
		WorkflowHandle<String> remote = client.client()
			.start(FlightWorkflow::run, new Trip(null, 0, true), QueueFlights.into("one", "remote").build());
		// from the worker itself: a hand-off, then each close admits the next
		WorkflowHandle<String> local = worker.client()
			.start(FlightWorkflow::run, new Trip(null, 0), QueueFlights.into("one", "local").build());
		WorkflowHandle<String> last = worker.client()
			.start(FlightWorkflow::run, new Trip(null, 0), QueueFlights.into("one", "last").build());
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> remote.describe().workflowTasks() == 1);
		remote.signal("open", null);
		assertThat(remote.result(Duration.ofSeconds(10))).isEqualTo("remote@worker");
		assertThat(local.result(Duration.ofSeconds(10))).isEqualTo("local@worker");
		assertThat(last.result(Duration.ofSeconds(10))).isEqualTo("last@worker");
		assertThat(flights.maxInFlight()).isEqualTo(1);
	}

}
