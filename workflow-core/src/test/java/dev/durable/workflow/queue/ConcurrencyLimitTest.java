package dev.durable.workflow.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.queue.QueueFlights.FlightWorkflow;
import dev.durable.workflow.queue.QueueFlights.Trip;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A queue's concurrency holds across the cluster: three nodes on one database admit from
 * one queue at once, and never more of its workflows are in flight than the limit.
 */
class ConcurrencyLimitTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void threeNodesNeverRunMoreThanTheQueuesConcurrency() {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		// the first flights wait until 3 have begun: the limit is reached on any machine
		flights.meetUntil(3);
		QueueDefinition payments = QueueDefinition.named("payments").withConcurrency(3);
		List<WorkflowEngine> nodes = new ArrayList<>();
		for (String name : List.of("a", "b", "c")) {
			nodes.add(this.engines.start(this.engines.builder()
				.register(FlightWorkflow.class)
				.registerActivities(new QueueFlights.Flight(flights, name))
				.queue(payments)
				// frequent fallback rounds: the three nodes' rounds overlap all the time
				.pollInterval(Duration.ofMillis(10))));
		}
		// a client-only node starts them: every start notifies all three dispatchers,
		// which race
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false).queue(payments));
		List<WorkflowHandle<String>> handles = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			handles.add(client.client()
				.start(FlightWorkflow::run, new Trip(null, 20),
						StartOptions.builder().workflowId("pay-" + i).queue("payments").build()));
		}
		for (WorkflowHandle<String> handle : handles) {
			assertThat(handle.result(Duration.ofSeconds(60))).startsWith(handle.workflowId() + "@");
		}
		assertThat(flights.count("true")).isEqualTo(50);
		assertThat(flights.maxInFlight()).as("flights in the air at once").isEqualTo(3);
		assertThat(flights.nodes()).as("nodes that admitted and ran them").hasSizeGreaterThanOrEqualTo(2);
		assertThat(nodes.get(0).queues()).singleElement().satisfies((info) -> {
			assertThat(info.waitingWorkflows()).isZero();
			assertThat(info.runningWorkflows()).isZero();
		});
	}

}
