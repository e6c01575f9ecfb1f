package dev.durable.workflow.taskqueue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.activity.ActivityOptions;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Activities on a task queue limited by the flow-control queue of the same name: the
 * limits hold across the nodes that claim (an admission round under the queue row's
 * lock), checked by a table the activities write while they run.
 */
class ActivityQueueLimitTest {

	private static final String QUEUE = "payments";

	private final Engines engines = new Engines();

	private static volatile JdbcTemplate jdbc;

	private static volatile String table;

	static final AtomicInteger MAX_SEEN = new AtomicInteger();

	/**
	 * When positive, each charge holds until this many charges ran at once (at most a few
	 * seconds): an unlimited queue then shows its concurrency however slowly a loaded
	 * machine starts the runs, and a limited one never reaches it.
	 */
	static volatile int holdUntilRunning;

	@BeforeEach
	void createTable() {
		jdbc = this.engines.jdbc();
		table = "public." + this.engines.schema + "_inflight";
		jdbc.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, running int NOT NULL, peak int NOT NULL)");
		jdbc.update("INSERT INTO " + table + " VALUES (1, 0, 0)");
		MAX_SEEN.set(0);
		holdUntilRunning = 0;
	}

	@AfterEach
	void close() {
		this.engines.close();
		jdbc.execute("DROP TABLE IF EXISTS " + table);
	}

	@Activity
	public interface Payments {

		@ActivityMethod(taskQueue = QUEUE)
		String charge(String order);

	}

	/**
	 * Counts the attempts in flight in the database, with the peak, around 100 ms of
	 * work.
	 */
	public static class CountingPayments implements Payments {

		@Override
		public String charge(String order) {
			int running = jdbc.queryForObject("UPDATE " + table + " SET running = running + 1,"
					+ " peak = greatest(peak, running + 1) WHERE id = 1 RETURNING running", Integer.class);
			MAX_SEEN.accumulateAndGet(running, Math::max);
			try {
				Thread.sleep(100);
				long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
				while (MAX_SEEN.get() < holdUntilRunning && System.nanoTime() < deadline) {
					Thread.sleep(10);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				jdbc.update("UPDATE " + table + " SET running = running - 1 WHERE id = 1");
			}
			return "charged " + order;
		}

	}

	@Workflow("pay")
	public static class PayWorkflow {

		private final Payments payments;

		public PayWorkflow(Payments payments) {
			this.payments = payments;
		}

		@WorkflowRun
		public String run(String order) {
			return this.payments.charge(order);
		}

	}

	private WorkflowEngine worker() {
		return this.engines.start(this.engines.builder()
			.runWorkflows(false)
			.activityTaskQueues(QUEUE)
			.registerActivities(new CountingPayments())
			.queue(QueueDefinition.named(QUEUE).withConcurrency(3)));
	}

	@Test
	void threeNodesNeverRunMoreThanTheQueuesConcurrency() {
		WorkflowEngine workflows = this.engines.start(this.engines.builder()
			.register(PayWorkflow.class)
			.queue(QueueDefinition.named(QUEUE).withConcurrency(3)));
		worker();
		worker();
		worker();
		List<WorkflowHandle<String>> handles = new ArrayList<>();
		for (int i = 0; i < 30; i++) {
			handles.add(workflows.client().start(PayWorkflow::run, "order-" + i, StartOptions.withId("pay-" + i)));
		}
		for (WorkflowHandle<String> handle : handles) {
			assertThat(handle.result(Duration.ofSeconds(60))).startsWith("charged order-");
		}
		int peak = jdbc.queryForObject("SELECT peak FROM " + table + " WHERE id = 1", Integer.class);
		assertThat(peak).as("attempts in flight at once").isEqualTo(3);
		assertThat(MAX_SEEN).hasValue(3);
		Engines.assertReplays(workflows, handles.get(0).runId());
	}

	/**
	 * Charges on a partition (a customer); the "blocked" customer's charge waits for a
	 * release.
	 */
	@Workflow("pay-customer")
	public static class PayCustomerWorkflow {

		@WorkflowRun
		public String run(String customer) {
			return Workflows
				.activities(Payments.class, ActivityOptions.builder().taskQueue(QUEUE).partitionKey(customer).build())
				.charge(customer);
		}

	}

	static final java.util.concurrent.CountDownLatch RELEASE = new java.util.concurrent.CountDownLatch(1);

	/** Blocks the charges of customer "blocked" until {@link #RELEASE}. */
	public static class BlockingPayments implements Payments {

		@Override
		public String charge(String order) {
			if (order.equals("blocked")) {
				try {
					RELEASE.await(30, java.util.concurrent.TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			return "charged " + order;
		}

	}

	@Test
	void aPartitionAtItsLimitDoesNotHoldBackAnother() {
		QueueDefinition perCustomer = QueueDefinition.named(QUEUE).withPartitionConcurrency(1);
		WorkflowEngine workflows = this.engines
			.start(this.engines.builder().register(PayCustomerWorkflow.class).queue(perCustomer));
		this.engines.start(this.engines.builder()
			.runWorkflows(false)
			.activityTaskQueues(QUEUE)
			.registerActivities(new BlockingPayments())
			.queue(perCustomer));
		WorkflowHandle<String> blocked = workflows.client()
			.start(PayCustomerWorkflow::run, "blocked", StartOptions.withId("blocked-1"));
		org.awaitility.Awaitility.await()
			.until(() -> jdbc.queryForObject(
					"SELECT count(*) FROM " + this.engines.schema + ".activity WHERE state = 'STARTED'",
					Integer.class) == 1);
		WorkflowHandle<String> second = workflows.client()
			.start(PayCustomerWorkflow::run, "blocked", StartOptions.withId("blocked-2"));
		WorkflowHandle<String> other = workflows.client()
			.start(PayCustomerWorkflow::run, "free", StartOptions.withId("free-customer"));
		// the other customer's charge runs while the blocked customer's second one waits
		// its turn
		assertThat(other.result(Duration.ofSeconds(20))).isEqualTo("charged free");
		assertThat(jdbc.queryForObject(
				"SELECT count(*) FROM " + this.engines.schema + ".activity WHERE state = 'SCHEDULED'", Integer.class))
			.isEqualTo(1);
		RELEASE.countDown();
		assertThat(blocked.result(Duration.ofSeconds(20))).isEqualTo("charged blocked");
		assertThat(second.result(Duration.ofSeconds(20))).isEqualTo("charged blocked");
	}

	@Test
	void withoutADeclaredQueueTheTaskQueueIsNotLimited() {
		holdUntilRunning = 4;
		WorkflowEngine workflows = this.engines.start(this.engines.builder().register(PayWorkflow.class));
		this.engines.start(this.engines.builder()
			.runWorkflows(false)
			.activityTaskQueues(QUEUE)
			.registerActivities(new CountingPayments()));
		List<WorkflowHandle<String>> handles = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			handles.add(workflows.client().start(PayWorkflow::run, "order-" + i, StartOptions.withId("free-" + i)));
		}
		handles.forEach((handle) -> handle.result(Duration.ofSeconds(60)));
		assertThat(jdbc.queryForObject("SELECT peak FROM " + table + " WHERE id = 1", Integer.class)).isGreaterThan(3);
	}

}
