package dev.durable.workflow.queue;

import java.time.Duration;
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
 * Runs waiting in a queue are admitted by priority, higher first, and in order of arrival
 * within one.
 */
class QueuePriorityTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void higherPriorityFirstFirstComeFirstServedWithinAPriority() {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		QueueDefinition single = QueueDefinition.named("single").withConcurrency(1);
		WorkflowEngine a = this.engines.start(QueueFlights.node(this.engines.builder(), flights, "a", single));
		this.engines.start(QueueFlights.node(this.engines.builder(), flights, "b", single));
		WorkflowHandle<String> blocker = a.client()
			.start(FlightWorkflow::run, new Trip(null, 0, true), QueueFlights.into("single", "blocker").build());
		await().until(() -> blocker.describe().workflowTasks() == 1);
		List<String> arrivals = List.of("p0-first:0", "p5-first:5", "p0-second:0", "p5-second:5", "p1-only:1",
				"p-1-low:-1");
		for (String arrival : arrivals) {
			String[] idAndPriority = arrival.split(":");
			a.client()
				.start(FlightWorkflow::run, new Trip(null, 0),
						QueueFlights.into("single", idAndPriority[0])
							.priority(Integer.parseInt(idAndPriority[1]))
							.build());
			this.engines.clock.advance(Duration.ofMillis(1)); // distinct arrival times
		}
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(flights.count("true")).as("nothing flew past the blocker").isZero();

		blocker.signal("open", null);
		assertThat(blocker.result(Duration.ofSeconds(10))).startsWith("blocker@");
		await().until(() -> flights.count("#.ended IS NOT NULL") == 1 + arrivals.size());
		assertThat(this.engines.jdbc()
			.queryForList("SELECT workflow_id FROM " + this.engines.schema + ".flight ORDER BY began", String.class))
			.containsExactly("blocker", "p5-first", "p5-second", "p1-only", "p0-first", "p0-second", "p-1-low");
		assertThat(flights.maxInFlight()).isEqualTo(1);
	}

}
