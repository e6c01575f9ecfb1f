package dev.durable.workflow.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
 * Per-node concurrency limits each node on its own: two nodes of 2 run up to 4 together,
 * never 3 on one.
 */
class QueuePerNodeTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void eachNodeRunsAtMostItsShare() {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		// the first flights wait until 4 have begun: the limit is reached on any machine
		flights.meetUntil(4);
		QueueDefinition shared = QueueDefinition.named("per-node").withPerNodeConcurrency(2);
		for (String name : List.of("a", "b")) {
			this.engines.start(QueueFlights.node(this.engines.builder(), flights, name, shared));
		}
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false).queue(shared));
		List<WorkflowHandle<String>> handles = new ArrayList<>();
		for (int i = 0; i < 24; i++) {
			handles.add(client.client()
				.start(FlightWorkflow::run, new Trip(null, 60), QueueFlights.into("per-node", "n-" + i).build()));
		}
		for (WorkflowHandle<String> handle : handles) {
			assertThat(handle.result(Duration.ofSeconds(30))).startsWith(handle.workflowId() + "@");
		}
		assertThat(flights.maxInFlight("#.node = 'a'")).as("in flight on a").isEqualTo(2);
		assertThat(flights.maxInFlight("#.node = 'b'")).as("in flight on b").isEqualTo(2);
		assertThat(flights.maxInFlight()).as("in flight on both").isEqualTo(4);
	}

}
