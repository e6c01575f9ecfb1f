package dev.durable.workflow.queue;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.StartCanceledException;
import dev.durable.workflow.client.StartDroppedException;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.ExcessStrategy;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.queue.QueueFlights.FlightWorkflow;
import dev.durable.workflow.queue.QueueFlights.Trip;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The excess strategies of a queue: what a workflow start beyond its partition key's
 * concurrency (or beyond a full rate window) does, and what its caller sees. A start that
 * fits is never touched; the other partition keys are never touched.
 */
class ConcurrencyStrategyTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** A flight that waits for the signal open, holding its slot. */
	private static final Trip GATED = new Trip(null, 0, true);

	private WorkflowEngine node(QueueDefinition queue) {
		QueueFlights flights = new QueueFlights(this.engines.jdbc(), this.engines.schema);
		return this.engines.start(QueueFlights.node(this.engines.builder(), flights, "n", queue));
	}

	private static StartOptions into(String workflowId, String key) {
		return QueueFlights.into("deploys", workflowId).partitionKey(key).build();
	}

	private long runs(String workflowId) {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".workflow_run WHERE workflow_id = ?",
					Long.class, workflowId);
	}

	private static QueueDefinition deploys(ExcessStrategy strategy) {
		return QueueDefinition.named("deploys").withPartitionConcurrency(1).withPartitionExcess(strategy);
	}

	@Test
	void dropRefusesTheStartBeyondTheKeysConcurrencyAndWritesNothing() {
		WorkflowEngine engine = node(deploys(ExcessStrategy.DROP));
		WorkflowHandle<String> first = engine.client().start(FlightWorkflow::run, GATED, into("d1", "prod"));
		assertThatThrownBy(() -> engine.client().start(FlightWorkflow::run, GATED, into("d2", "prod")))
			.isInstanceOfSatisfying(StartDroppedException.class, (dropped) -> {
				assertThat(dropped.getWorkflowId()).isEqualTo("d2");
				assertThat(dropped.getQueue()).isEqualTo("deploys");
				assertThat(dropped.getPartitionKey()).isEqualTo("prod");
				assertThat(dropped.getLimit()).isEqualTo(StartDroppedException.Limit.PARTITION_CONCURRENCY);
			})
			.hasMessageContaining("partition key 'prod' of queue 'deploys' has 1 open runs, its concurrency is 1");
		assertThat(runs("d2")).as("a dropped start writes nothing").isZero();
		// another key has room, and the key has room again once its run closed
		WorkflowHandle<String> staging = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0), into("s1", "staging"));
		assertThat(staging.result(Duration.ofSeconds(20))).startsWith("s1@");
		first.signal("open", null);
		assertThat(first.result(Duration.ofSeconds(20))).startsWith("d1@");
		WorkflowHandle<String> again = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0), into("d2", "prod"));
		assertThat(again.result(Duration.ofSeconds(20))).startsWith("d2@");
	}

	@Test
	void cancelNewestRefusesTheNewStartWithItsOwnAnswer() {
		WorkflowEngine engine = node(deploys(ExcessStrategy.CANCEL_NEWEST));
		WorkflowHandle<String> first = engine.client().start(FlightWorkflow::run, GATED, into("c1", "prod"));
		assertThatThrownBy(() -> engine.client().start(FlightWorkflow::run, GATED, into("c2", "prod")))
			.isInstanceOfSatisfying(StartCanceledException.class, (canceled) -> {
				assertThat(canceled.getWorkflowId()).isEqualTo("c2");
				assertThat(canceled.getPartitionKey()).isEqualTo("prod");
			})
			.hasMessageContaining("(CANCEL_NEWEST)");
		assertThat(runs("c2")).isZero();
		assertThat(first.describe().status()).as("the running one keeps its slot").isEqualTo(WorkflowStatus.RUNNING);
		first.signal("open", null);
		assertThat(first.result(Duration.ofSeconds(20))).startsWith("c1@");
	}

	@Test
	void cancelOldestRunningCancelsTheKeysOldestRunToMakeRoom() {
		WorkflowEngine engine = node(deploys(ExcessStrategy.CANCEL_OLDEST_RUNNING));
		WorkflowHandle<String> old = engine.client().start(FlightWorkflow::run, GATED, into("v1", "prod"));
		WorkflowHandle<String> other = engine.client().start(FlightWorkflow::run, GATED, into("o1", "staging"));
		await().until(() -> old.describe().workflowTasks() == 1 && other.describe().workflowTasks() == 1);
		WorkflowHandle<String> newer = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0), into("v2", "prod"));
		await().atMost(Duration.ofSeconds(20)).until(() -> old.describe().status() == WorkflowStatus.CANCELED);
		assertThat(newer.result(Duration.ofSeconds(20))).startsWith("v2@");
		assertThat(other.describe().status()).as("another key is not touched").isEqualTo(WorkflowStatus.RUNNING);
		// a third start cancels the second (closed already: nothing left to cancel) and
		// runs
		WorkflowHandle<String> third = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0), into("v3", "prod"));
		assertThat(third.result(Duration.ofSeconds(20))).startsWith("v3@");
		other.signal("open", null);
		assertThat(other.result(Duration.ofSeconds(20))).startsWith("o1@");
	}

	@Test
	void queueIsTheDefaultTheStartWaits() {
		QueueDefinition queue = QueueDefinition.named("deploys").withPartitionConcurrency(1);
		assertThat(queue.partitionExcess()).isEqualTo(ExcessStrategy.QUEUE);
		WorkflowEngine engine = node(queue);
		WorkflowHandle<String> first = engine.client().start(FlightWorkflow::run, GATED, into("q1", "prod"));
		WorkflowHandle<String> second = engine.client()
			.start(FlightWorkflow::run, new Trip(null, 0), into("q2", "prod"));
		await().until(() -> first.describe().workflowTasks() == 1);
		assertThat(second.describe().workflowTasks()).as("waits for the first").isZero();
		first.signal("open", null);
		assertThat(second.result(Duration.ofSeconds(20))).startsWith("q2@");
	}

	@Test
	void aRateLimitDropsInsteadOfDelaying() {
		WorkflowEngine engine = node(QueueDefinition.named("deploys")
			.withRateLimit(2, Duration.ofMinutes(1))
			.withRateExcess(ExcessStrategy.DROP));
		WorkflowHandle<String> first = engine.client().start(FlightWorkflow::run, GATED, into("r1", "a"));
		WorkflowHandle<String> second = engine.client().start(FlightWorkflow::run, GATED, into("r2", "b"));
		assertThatThrownBy(() -> engine.client().start(FlightWorkflow::run, GATED, into("r3", "c")))
			.isInstanceOfSatisfying(StartDroppedException.class,
					(dropped) -> assertThat(dropped.getLimit()).isEqualTo(StartDroppedException.Limit.RATE_LIMIT));
		assertThat(runs("r3")).isZero();
		await().until(() -> first.describe().workflowTasks() == 1 && second.describe().workflowTasks() == 1);
		// once the window moved on, the queue takes starts again
		this.engines.clock.advance(Duration.ofMinutes(1).plusSeconds(1));
		WorkflowHandle<String> later = engine.client().start(FlightWorkflow::run, new Trip(null, 0), into("r3", "c"));
		assertThat(later.result(Duration.ofSeconds(20))).startsWith("r3@");
	}

	@Test
	void aStrategyOtherThanQueueNeedsItsLimit() {
		assertThatThrownBy(() -> QueueDefinition.named("q").withPartitionExcess(ExcessStrategy.DROP))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("needs a partition concurrency");
		assertThatThrownBy(() -> QueueDefinition.named("q").withRateExcess(ExcessStrategy.DROP))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("DROP needs a rate limit");
		assertThatThrownBy(() -> QueueDefinition.named("q")
			.withRateLimit(1, Duration.ofSeconds(1))
			.withRateExcess(ExcessStrategy.CANCEL_NEWEST)).isInstanceOf(IllegalArgumentException.class);
	}

}
