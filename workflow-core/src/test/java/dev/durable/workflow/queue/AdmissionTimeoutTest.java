package dev.durable.workflow.queue;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.TimeoutFailure;
import dev.durable.workflow.failure.TimeoutType;
import dev.durable.workflow.queue.QueueFlights.FlightWorkflow;
import dev.durable.workflow.queue.QueueFlights.Trip;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A queue's admission timeout, on the engine clock: a start that waited in the queue
 * longer than it closes as timed out ({@code SCHEDULE_TO_START}, recorded in its history,
 * replayable) instead of running late; the running run and a start that waited less are
 * not touched.
 */
class AdmissionTimeoutTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void aStartThatWaitedLongerThanTheTimeoutClosesTimedOut() {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		QueueDefinition queue = QueueDefinition.named("reports")
			.withConcurrency(1)
			.withAdmissionTimeout(Duration.ofMinutes(5));
		WorkflowEngine engine = this.engines.start(QueueFlights.node(this.engines.builder(), flights, "n", queue));
		WorkflowHandle<String> running = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0, true), QueueFlights.into("reports", "t-running").build());
		await().until(() -> running.describe().workflowTasks() == 1);
		WorkflowHandle<String> late = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0), QueueFlights.into("reports", "t-late").build());
		this.engines.clock.advance(Duration.ofMinutes(4));
		WorkflowHandle<String> recent = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0), QueueFlights.into("reports", "t-recent").build());
		// the first waiter is now 6 minutes in the queue, the second 2
		this.engines.clock.advance(Duration.ofMinutes(2));
		await().atMost(Duration.ofSeconds(20)).until(() -> late.describe().status() == WorkflowStatus.TIMED_OUT);
		assertThatThrownBy(() -> late.result(Duration.ofSeconds(5)))
			.isInstanceOfSatisfying(WorkflowFailedException.class,
					(ex) -> assertThat(ex.getStatus()).isEqualTo(WorkflowStatus.TIMED_OUT))
			.cause()
			.isInstanceOfSatisfying(TimeoutFailure.class,
					(timeout) -> assertThat(timeout.getTimeoutType()).isEqualTo(TimeoutType.SCHEDULE_TO_START))
			.hasMessageContaining("waited in queue 'reports' longer than its admission timeout of PT5M");
		assertThat(late.history()).last().extracting("type").isEqualTo("WORKFLOW_TIMED_OUT");
		assertThat(late.history()).extracting("type").as("it never ran").containsExactly("WORKFLOW_TIMED_OUT");
		// its history replays: nothing to replay before the close written outside any
		// task
		assertThat(EngineInternals.node(engine).replay(late.runId())).isEmpty();
		assertThat(recent.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(running.describe().status()).isEqualTo(WorkflowStatus.RUNNING);

		running.signal("open", null);
		assertThat(running.result(Duration.ofSeconds(20))).startsWith("t-running@");
		assertThat(recent.result(Duration.ofSeconds(20))).startsWith("t-recent@");
		assertThat(flights.count("#.workflow_id = 't-late'")).as("the timed-out start never flew").isZero();
	}

	@Test
	void withoutATimeoutAStartWaitsAsLongAsItTakes() {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		QueueDefinition queue = QueueDefinition.named("reports").withConcurrency(1);
		assertThat(queue.admissionTimeout()).isNull();
		WorkflowEngine engine = this.engines.start(QueueFlights.node(this.engines.builder(), flights, "n", queue));
		WorkflowHandle<String> running = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0, true), QueueFlights.into("reports", "w-running").build());
		await().until(() -> running.describe().workflowTasks() == 1);
		WorkflowHandle<String> waiting = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0), QueueFlights.into("reports", "w-waiting").build());
		this.engines.clock.advance(Duration.ofDays(1));
		running.signal("open", null);
		assertThat(waiting.result(Duration.ofSeconds(20))).startsWith("w-waiting@");
	}

}
