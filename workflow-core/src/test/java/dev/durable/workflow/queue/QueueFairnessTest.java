package dev.durable.workflow.queue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.internal.queue.QueueAdmission;
import dev.durable.workflow.internal.queue.WorkflowOccupancy;
import dev.durable.workflow.internal.queue.WorkflowQueueSource;
import dev.durable.workflow.queue.QueueFlights.FlightWorkflow;
import dev.durable.workflow.queue.QueueFlights.Trip;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fair admission across partition keys, as the rounds of a node take queued runs: a key
 * with 10,000 waiting runs does not delay a key with 10 that came after them, and the
 * weights of the keys set their shares. The waiting runs are copies of one started run
 * (so that 10,000 of them take seconds, not minutes); the rounds are the engine's own
 * ({@link QueueAdmission} with the workflow source), run by the test in its own
 * transactions, so that what each round admitted can be read.
 */
class QueueFairnessTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	private JdbcTemplate jdbc() {
		return this.engines.jdbc();
	}

	private String namespace;

	private String taskQueue;

	private UUID template;

	/** A client node declaring the queues; one run started to copy. */
	private void setUp(QueueDefinition... queues) {
		QueueFlights flights = new QueueFlights(jdbc(), this.engines.schema);
		WorkflowEngine.Builder builder = QueueFlights.node(this.engines.builder().worker(false), flights, "client",
				queues[0]);
		for (int i = 1; i < queues.length; i++) {
			builder.queue(queues[i]);
		}
		WorkflowEngine client = this.engines.start(builder);
		WorkflowHandle<String> first = client.client()
			.start(FlightWorkflow::run, new Trip(null, 0), QueueFlights.into(queues[0].name(), "template").build());
		this.template = first.runId();
		this.namespace = jdbc().queryForObject(
				"SELECT namespace FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?", String.class,
				this.template);
		this.taskQueue = jdbc().queryForObject(
				"SELECT task_queue FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?", String.class,
				this.template);
		jdbc().update("DELETE FROM " + this.engines.schema + ".queued_run WHERE run_id = ?", this.template);
	}

	/**
	 * Copies the started run {@code count} times as runs waiting in the queue with the
	 * partition key, arriving one millisecond apart from {@code since} on.
	 */
	private void waiting(String queue, String key, int count, Instant since) {
		String s = this.engines.schema;
		List<String> columns = jdbc().queryForList(
				"SELECT column_name FROM information_schema.columns"
						+ " WHERE table_schema = ? AND table_name = 'workflow_run' ORDER BY ordinal_position",
				String.class, s);
		String copied = columns.stream().map((column) -> switch (column) {
			case "run_id" -> "gen_random_uuid()";
			case "workflow_id" -> "'" + queue + "-" + key + "-' || i";
			default -> "r." + column;
		}).collect(Collectors.joining(", "));
		jdbc().update("INSERT INTO " + s + ".workflow_run (" + String.join(", ", columns) + ") SELECT " + copied
				+ " FROM " + s + ".workflow_run r, generate_series(1, ?) i WHERE r.run_id = ?", count, this.template);
		jdbc().update(
				"INSERT INTO " + s + ".queued_run (run_id, namespace, queue, workflow_type, task_queue,"
						+ " priority, partition_key, enqueued_at) SELECT r.run_id, r.namespace, ?, r.workflow_type,"
						+ " r.task_queue, 0, ?, ?::timestamptz + (substring(r.workflow_id from '[0-9]+$')::int"
						+ " * interval '1 millisecond') FROM " + s + ".workflow_run r WHERE r.workflow_id LIKE ?",
				queue, key, since.toString(), queue + "-" + key + "-%");
	}

	/**
	 * One admission round of at most {@code max} runs: the keys admitted (in no order:
	 * the round takes them in one statement).
	 */
	private List<String> round(String queue, int max) {
		QueueAdmission admission = new QueueAdmission(jdbc(), this.engines.schema,
				List.of(new WorkflowOccupancy(jdbc(), this.engines.schema)));
		WorkflowQueueSource source = new WorkflowQueueSource(jdbc(), this.engines.schema, Set.of("queue-flight"),
				Set.of(this.taskQueue), Duration.ofSeconds(30), null, (row, woken) -> {
				});
		TransactionTemplate tx = new TransactionTemplate(new DataSourceTransactionManager(jdbc().getDataSource()));
		List<WorkflowQueueSource.Admitted> admitted = tx.execute((status) -> admission
			.admit(this.namespace, queue, UUID.randomUUID(), this.engines.clock.instant(), max, source)
			.orElseThrow()
			.admitted());
		List<String> keys = new ArrayList<>();
		for (WorkflowQueueSource.Admitted run : admitted) {
			keys.add(jdbc().queryForObject(
					"SELECT partition_key FROM " + this.engines.schema + ".queued_run WHERE run_id = ?", String.class,
					run.runId()));
		}
		return keys;
	}

	@Test
	void aKeyWithTenWaitingRunsIsNotDelayedByOneWithTenThousand() {
		setUp(QueueDefinition.named("fair").withFairness(), QueueDefinition.named("plain"));
		Instant t0 = this.engines.clock.instant().minusSeconds(60);
		waiting("fair", "big", 10_000, t0);
		waiting("fair", "small", 10, t0.plusSeconds(30));
		List<String> admitted = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			List<String> round = round("fair", 4);
			assertThat(round).as("round %d alternates between the keys", i)
				.containsExactlyInAnyOrder("big", "small", "big", "small");
			admitted.addAll(round);
		}
		assertThat(admitted).filteredOn("small"::equals).as("all of the small key's runs in 5 rounds").hasSize(10);
		assertThat(round("fair", 4)).as("then the big key's").containsOnly("big");

		// the default is unchanged: the order of arrival
		waiting("plain", "big", 100, t0);
		waiting("plain", "small", 10, t0.plusSeconds(30));
		for (int i = 0; i < 5; i++) {
			assertThat(round("plain", 20)).as("round %d of a queue without fairness", i).containsOnly("big");
		}
		assertThat(round("plain", 20)).containsOnly("small");
	}

	@Test
	void theKeysTakeTurnsAcrossRoundsOfOneRunEach() {
		setUp(QueueDefinition.named("single").withFairness());
		Instant t0 = this.engines.clock.instant().minusSeconds(60);
		waiting("single", "big", 100, t0);
		assertThat(round("single", 1)).containsExactly("big");
		waiting("single", "small", 3, t0.plusSeconds(30));
		List<String> admitted = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			admitted.addAll(round("single", 1));
		}
		assertThat(admitted).as("one run per round, the keys alternating")
			.containsExactly("small", "big", "small", "big", "small", "big");
	}

	@Test
	void aKeyOfWeightThreeGetsThreeAdmissionsForEachOfAKeyOfWeightOne() {
		setUp(QueueDefinition.named("weighted").withPartitionWeight("gold", 3));
		Instant t0 = this.engines.clock.instant().minusSeconds(60);
		waiting("weighted", "basic", 20, t0);
		waiting("weighted", "gold", 60, t0.plusSeconds(10));
		assertThat(round("weighted", 8)).containsExactlyInAnyOrder("basic", "gold", "gold", "gold", "basic", "gold",
				"gold", "gold");
		List<String> next = new ArrayList<>();
		for (int i = 0; i < 9; i++) {
			next.addAll(round("weighted", 8));
		}
		assertThat(next).filteredOn("gold"::equals).hasSize(54);
		assertThat(next).filteredOn("basic"::equals).hasSize(18);
	}

	@Test
	void fairnessKeepsThePriorityFirstAndThePartitionLimit() {
		setUp(QueueDefinition.named("ranked").withFairness().withPartitionConcurrency(2));
		Instant t0 = this.engines.clock.instant().minusSeconds(60);
		waiting("ranked", "a", 50, t0);
		waiting("ranked", "b", 50, t0.plusSeconds(1));
		jdbc().update("UPDATE " + this.engines.schema + ".queued_run SET priority = 5 WHERE partition_key = 'b'");
		assertThat(round("ranked", 2)).as("b has the higher priority").containsExactly("b", "b");
		assertThat(round("ranked", 10)).as("each key holds 2 at most").containsExactly("a", "a");
		assertThat(round("ranked", 10)).as("both keys full").isEmpty();
	}

}
