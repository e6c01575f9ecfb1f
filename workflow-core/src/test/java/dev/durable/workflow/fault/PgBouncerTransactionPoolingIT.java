package dev.durable.workflow.fault;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.SignalMethod;
import dev.durable.workflow.UpdateMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.schedule.ScheduleFixtures;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.PgBouncer;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two engines whose data source goes through a real PgBouncer in transaction pooling mode
 * (four server sessions for all their connections), with the direct data source for
 * LISTEN and the schema migration: starts, inline and task-queue activities, timers,
 * signals, queries, updates, child workflows, continue-as-new, a schedule and a
 * flow-control queue all complete, and replay. A pooled URL without
 * {@code prepareThreshold=0} fails the start with the setting named (Debian 12 ships
 * PgBouncer 1.18, which does not track prepared statements).
 *
 * <p>
 * Skipped when no pgbouncer executable is found; CI ({@code .ci/run}) installs Debian's.
 */
class PgBouncerTransactionPoolingIT {

	private static PgBouncer bouncer;

	private static HikariDataSource pooled;

	private static HikariDataSource direct;

	// the first start migrates over the direct connections, past the pooler
	private final Engines engines = Engines.onNewSchema();

	private final List<HikariDataSource> extraPools = new ArrayList<>();

	@BeforeAll
	static void startPgBouncer() {
		var binary = PgBouncer.binary();
		assumeTrue(binary.isPresent(),
				"pgbouncer not found (install Debian's pgbouncer package, or set -Dpgbouncer.path):"
						+ " skipping the PgBouncer transaction pooling test");
		bouncer = PgBouncer.start(binary.get(), TestDatabase.postgres().getPort(), 4);
		pooled = TestDatabase.pool(bouncer.jdbcUrl() + "&prepareThreshold=0&ApplicationName=pgb-pooled", 16);
		direct = TestDatabase.pool(TestDatabase.jdbcUrl() + "&ApplicationName=pgb-direct", 4);
	}

	@AfterAll
	static void stopPgBouncer() {
		if (pooled != null) {
			pooled.close();
		}
		if (direct != null) {
			direct.close();
		}
		if (bouncer != null) {
			bouncer.close();
		}
	}

	@AfterEach
	void close() {
		this.engines.close();
		this.extraPools.forEach(HikariDataSource::close);
	}

	@Activity
	public static class Steps {

		public String inline(String id) {
			return "inline " + id;
		}

	}

	/** Implemented only on the node that serves the "pgb-remote" task queue. */
	@Activity
	public interface Remote {

		@ActivityMethod(taskQueue = "pgb-remote", initialInterval = "PT1S")
		String render(String id);

	}

	public static class RemoteImpl implements Remote {

		@Override
		public String render(String id) {
			return "remote " + id;
		}

	}

	public record Order(String id, int round) {
	}

	@Workflow("pgb-part")
	public static class Part {

		@WorkflowRun
		public String run(String name) {
			return name + "!";
		}

	}

	/**
	 * Every kind of command in one run (after a continue-as-new): the engine's core
	 * paths.
	 */
	@Workflow("pgb-order")
	public static class OrderWorkflow {

		private final Steps steps;

		private final Remote remote;

		private String stage = "new";

		private String approvedBy;

		private int total;

		public OrderWorkflow(Steps steps, Remote remote) {
			this.steps = steps;
			this.remote = remote;
		}

		@WorkflowRun
		public String run(Order order) {
			if (order.round() == 0) {
				Workflows.continueAsNew(new Order(order.id(), 1));
			}
			String inline = this.steps.inline(order.id());
			String remote = this.remote.render(order.id());
			this.stage = "sleeping";
			Workflows.sleep(Duration.ofMinutes(5));
			this.stage = "waiting";
			Workflows.await(() -> this.approvedBy != null);
			String part = Workflows.executeChild(Part::run, order.id(), ChildOptions.withId(order.id() + "-part"));
			Workflows.await(Workflows::allHandlersFinished);
			return String.join("|", inline, remote, this.approvedBy, part, Integer.toString(this.total));
		}

		@SignalMethod
		public void approve(String by) {
			this.approvedBy = by;
		}

		@UpdateMethod
		public int add(int amount) {
			this.total += amount;
			return this.total;
		}

		@QueryMethod
		public String stage() {
			return this.stage;
		}

	}

	private WorkflowEngine node(boolean servesRemote) {
		WorkflowEngine.Builder builder = this.engines.builder()
			.dataSource(pooled)
			.directDataSource(direct)
			.register(OrderWorkflow.class, Part.class, ScheduleFixtures.Tick.class)
			.queue(QueueDefinition.named("pgb-queue").withConcurrency(1));
		if (servesRemote) {
			builder.activityTaskQueues("pgb-remote").registerActivities(new Steps(), new RemoteImpl());
		}
		else {
			builder.registerActivities(new Steps());
		}
		return this.engines.start(builder);
	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void everyKindOfWorkCompletesThroughTransactionPooling() {
		WorkflowEngine first = node(false);
		WorkflowEngine second = node(true);
		List<WorkflowHandle<String>> orders = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			WorkflowEngine engine = (i % 2 == 0) ? first : second;
			orders.add(engine.client().start(OrderWorkflow::run, new Order("o" + i, 0), StartOptions.withId("o" + i)));
		}
		for (WorkflowHandle<String> order : orders) {
			await().atMost(Duration.ofSeconds(60)).until(() -> "sleeping".equals(order.query(OrderWorkflow::stage)));
		}
		this.engines.clock.advance(Duration.ofMinutes(5));
		for (WorkflowHandle<String> order : orders) {
			await().atMost(Duration.ofSeconds(60)).until(() -> "waiting".equals(order.query(OrderWorkflow::stage)));
			assertThat(order.update(OrderWorkflow::add, 2)).isEqualTo(2);
			assertThat(order.update(OrderWorkflow::add, 3)).isEqualTo(5);
			order.signal(OrderWorkflow::approve, "ada");
		}
		for (int i = 0; i < orders.size(); i++) {
			String id = "o" + i;
			assertThat(orders.get(i).result(Duration.ofSeconds(60)))
				.isEqualTo("inline " + id + "|remote " + id + "|ada|" + id + "!|5");
		}
		Engines.assertReplays(first, orders.get(0).runId());
		Engines.assertReplays(second, orders.get(1).runId());

		// a flow-control queue admits one at a time across both engines
		List<WorkflowHandle<String>> queued = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			WorkflowEngine engine = (i % 2 == 0) ? first : second;
			queued.add(engine.client()
				.start(Part::run, "q" + i, StartOptions.builder().workflowId("q" + i).queue("pgb-queue").build()));
		}
		for (int i = 0; i < queued.size(); i++) {
			assertThat(queued.get(i).result(Duration.ofSeconds(60))).isEqualTo("q" + i + "!");
		}

		// a schedule fires as the settable clock moves
		first.client()
			.schedules()
			.create("pgb-every10", Schedule.of(ScheduleSpec.every(Duration.ofMinutes(10)),
					ScheduleAction.startWorkflow(ScheduleFixtures.Tick::run, "t")));
		assertThat(first.client().schedules().describe("pgb-every10").nextActionTimes().get(0))
			.isEqualTo(this.engines.clock.instant().plus(Duration.ofMinutes(5)));
		// (to each firing time exactly: a firing later than the catch-up window would be
		// skipped)
		this.engines.clock.advance(Duration.ofMinutes(5));
		await().atMost(Duration.ofSeconds(60))
			.until(() -> ScheduleFixtures.workflowIds(this.engines, "pgb-every10").size() == 1);
		this.engines.clock.advance(Duration.ofMinutes(10));
		await().atMost(Duration.ofSeconds(60))
			.until(() -> ScheduleFixtures.workflowIds(this.engines, "pgb-every10").size() == 2);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> this.engines.jdbc()
				.queryForObject(
						"SELECT count(*) FROM " + this.engines.schema
								+ ".workflow_run WHERE workflow_type = 'sched-tick'" + " AND status = 'COMPLETED'",
						Integer.class) == 2);

		// each engine listens on a direct session, never on one of PgBouncer's server
		// sessions
		assertThat(this.engines.jdbc()
			.queryForList("SELECT application_name FROM pg_stat_activity WHERE query = 'LISTEN durable_"
					+ this.engines.schema + "'", String.class))
			.containsExactly("pgb-direct", "pgb-direct");
	}

	@Test
	@Timeout(value = 1, unit = TimeUnit.MINUTES)
	void aPooledUrlThatKeepsNamedPreparedStatementsFailsTheStartNamingTheSetting() {
		HikariDataSource withThreshold = TestDatabase.pool(bouncer.jdbcUrl() + "&ApplicationName=pgb-pooled", 4);
		this.extraPools.add(withThreshold);
		WorkflowEngine engine = this.engines.builder()
			.dataSource(withThreshold)
			.directDataSource(direct)
			.register(Part.class)
			.build();
		assertThatThrownBy(engine::start).isInstanceOf(IllegalStateException.class)
			.hasMessageContaining("prepareThreshold=0")
			.hasMessageContaining("max_prepared_statements");
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?", Integer.class,
					this.engines.schema))
			.as("nothing migrated")
			.isZero();
	}

	@Test
	@Timeout(value = 1, unit = TimeUnit.MINUTES)
	void theSameUrlDirectToPostgresPassesTheCheck() {
		HikariDataSource withThreshold = TestDatabase.pool(TestDatabase.jdbcUrl(), 4);
		this.extraPools.add(withThreshold);
		WorkflowEngine engine = this.engines
			.start(this.engines.builder().dataSource(withThreshold).directDataSource(direct).register(Part.class));
		assertThat(engine.client().start(Part::run, "d", StartOptions.withId("d")).result(Duration.ofSeconds(30)))
			.isEqualTo("d!");
	}

}
