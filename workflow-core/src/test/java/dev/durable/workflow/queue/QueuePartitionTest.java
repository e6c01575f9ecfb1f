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
import static org.awaitility.Awaitility.await;

/**
 * Per-partition concurrency: a partition at its limit holds back its own runs only; the
 * runs of other partitions, queued behind them, still run.
 */
class QueuePartitionTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void aSaturatedPartitionDoesNotHoldBackTheOthers() {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		QueueDefinition tenants = QueueDefinition.named("tenants").withPartitionConcurrency(1);
		WorkflowEngine a = this.engines.start(QueueFlights.node(this.engines.builder(), flights, "a", tenants));
		this.engines.start(QueueFlights.node(this.engines.builder(), flights, "b", tenants));
		WorkflowEngine client = this.engines.start(this.engines.builder().worker(false).queue(tenants));
		// partition x: the first waits for a signal, the second queues behind it ...
		WorkflowHandle<String> x1 = client.client()
			.start(FlightWorkflow::run, new Trip("x", 0, true),
					QueueFlights.into("tenants", "x1").partitionKey("x").build());
		await().until(() -> x1.describe().workflowTasks() == 1);
		WorkflowHandle<String> x2 = client.client()
			.start(FlightWorkflow::run, new Trip("x", 0), QueueFlights.into("tenants", "x2").partitionKey("x").build());
		// ... and partition y's runs come after both
		List<WorkflowHandle<String>> ys = new ArrayList<>();
		for (int i = 1; i <= 4; i++) {
			this.engines.clock.advance(Duration.ofMillis(1));
			ys.add(client.client()
				.start(FlightWorkflow::run, new Trip("y", 30),
						QueueFlights.into("tenants", "y" + i).partitionKey("y").build()));
		}
		for (WorkflowHandle<String> y : ys) {
			assertThat(y.result(Duration.ofSeconds(20))).startsWith(y.workflowId() + "@");
		}
		assertThat(x2.describe().workflowTasks()).as("x2 waits for x1").isZero();
		assertThat(flights.maxInFlight("#.partition_key = 'y'")).as("y in flight at once").isEqualTo(1);

		x1.signal("open", null);
		assertThat(x1.result(Duration.ofSeconds(10))).startsWith("x1@");
		assertThat(x2.result(Duration.ofSeconds(10))).startsWith("x2@");
		assertThat(flights.maxInFlight("#.partition_key = 'x'")).as("x in flight at once").isEqualTo(1);
		assertThat(a.queues()).singleElement().satisfies((info) -> assertThat(info.depth()).isZero());
	}

}
