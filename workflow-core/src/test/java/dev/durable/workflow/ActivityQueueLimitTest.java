package dev.durable.workflow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Activities on a task queue limited by the flow-control queue of the same name: the limits hold
 * across the nodes that claim (an admission round under the queue row's lock), checked by a table
 * the activities write while they run.
 */
class ActivityQueueLimitTest {

	private static final String QUEUE = "payments";

	private final Engines engines = new Engines();

	private static volatile JdbcTemplate jdbc;

	private static volatile String table;

	static final AtomicInteger MAX_SEEN = new AtomicInteger();

	@BeforeEach
	void createTable() {
		jdbc = this.engines.jdbc();
		table = "public." + this.engines.schema + "_inflight";
		jdbc.execute("CREATE TABLE " + table + " (id int PRIMARY KEY, running int NOT NULL, peak int NOT NULL)");
		jdbc.update("INSERT INTO " + table + " VALUES (1, 0, 0)");
		MAX_SEEN.set(0);
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

	/** Counts the attempts in flight in the database, with the peak, around 100 ms of work. */
	public static class CountingPayments implements Payments {

		@Override
		public String charge(String order) {
			int running = jdbc.queryForObject("UPDATE " + table + " SET running = running + 1,"
					+ " peak = greatest(peak, running + 1) WHERE id = 1 RETURNING running", Integer.class);
			MAX_SEEN.accumulateAndGet(running, Math::max);
			try {
				Thread.sleep(100);
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

	@Test
	void withoutADeclaredQueueTheTaskQueueIsNotLimited() {
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
		assertThat(jdbc.queryForObject("SELECT peak FROM " + table + " WHERE id = 1", Integer.class))
			.isGreaterThan(3);
	}

}
