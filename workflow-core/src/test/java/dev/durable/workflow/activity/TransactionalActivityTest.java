package dev.durable.workflow.activity;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.HistoryEvent;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.failure.ActivityFailure;
import dev.durable.workflow.failure.ApplicationFailure;
import dev.durable.workflow.failure.InvalidActivityDefinitionException;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.StallingHooks;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Transactional activities: the activity's writes on the application's tables and the
 * record of its completion commit in one transaction, so they happen exactly once: rolled
 * back together on a failure, run again on a serialization failure, rolled back when the
 * attempt is stale (its run moved to another node), and never run again once committed,
 * even when the node dies before the result reaches the history.
 */
class TransactionalActivityTest {

	static final List<String> EXECUTIONS = new CopyOnWriteArrayList<>();

	/**
	 * How each transaction of the activities ended (TransactionSynchronization status
	 * names).
	 */
	static final List<String> ENDINGS = new CopyOnWriteArrayList<>();

	static volatile CountDownLatch hold = new CountDownLatch(0);

	static volatile StallingHooks stallAfterCommit;

	static String table;

	private final Engines engines = new Engines();

	private final JdbcTemplate jdbc = TestDatabase.jdbc();

	@BeforeEach
	void createTable() {
		table = this.engines.schema + "_app.reservation";
		this.jdbc.execute("CREATE SCHEMA " + this.engines.schema + "_app");
		this.jdbc.execute("CREATE TABLE " + table + " (id text PRIMARY KEY, node text NOT NULL)");
		this.jdbc
			.execute("CREATE TABLE " + this.engines.schema + "_app.counter (id int PRIMARY KEY, value int NOT NULL)");
		this.jdbc.update("INSERT INTO " + this.engines.schema + "_app.counter VALUES (1, 0)");
	}

	@AfterEach
	void close() {
		hold.countDown();
		this.engines.close();
		EXECUTIONS.clear();
		ENDINGS.clear();
		stallAfterCommit = null;
	}

	@Activity
	public static class Reservations {

		private final String node;

		private final JdbcTemplate app = new JdbcTemplate(TestDatabase.dataSource());

		public Reservations(String node) {
			this.node = node;
		}

		/**
		 * Inserts through Spring's JdbcTemplate (joins the transaction) and through plain
		 * JDBC.
		 */
		@ActivityMethod(transactional = true)
		public String reserve(String id) throws SQLException {
			record(id);
			assertThat(TransactionSynchronizationManager.isActualTransactionActive()).isTrue();
			this.app.update("INSERT INTO " + table + " (id, node) VALUES (?, ?)", id, this.node);
			try (Connection connection = ActivityTransaction.connection();
					PreparedStatement insert = connection
						.prepareStatement("INSERT INTO " + table + " (id, node) VALUES (?, ?)")) {
				assertThat(connection.getAutoCommit()).isFalse();
				insert.setString(1, id + "-jdbc");
				insert.setString(2, this.node);
				insert.executeUpdate();
			}
			StallingHooks hooks = stallAfterCommit;
			if (hooks != null) {
				// the node freezes right after this transaction commits: its next task
				// commit and its heartbeats
				hooks.stallCommits = true;
				hooks.stallHeartbeats = true;
			}
			return "reserved " + id + " on " + this.node;
		}

		/**
		 * Inserts, then fails its first attempt: the insert must roll back, or the second
		 * attempt's collides.
		 */
		@ActivityMethod(transactional = true, maxAttempts = 2, initialInterval = "PT1S")
		public String reserveFailingOnce(String id) {
			record(id);
			this.app.update("INSERT INTO " + table + " (id, node) VALUES (?, ?)", id, this.node);
			if (ActivityContext.current().info().attempt() == 1) {
				throw ApplicationFailure.newFailure("payment declined", "Declined");
			}
			return "reserved " + id;
		}

		@ActivityMethod(transactional = true, maxAttempts = 1)
		public String reserveAlwaysFailing(String id) {
			record(id);
			this.app.update("INSERT INTO " + table + " (id, node) VALUES (?, ?)", id, this.node);
			throw ApplicationFailure.newFailure("out of stock", "OutOfStock");
		}

		/**
		 * Repeatable read: the first run of the transaction reads the counter, another
		 * transaction changes it, then this one's update aborts with a serialization
		 * failure (40001).
		 */
		@ActivityMethod(transactional = true, isolation = TransactionIsolation.REPEATABLE_READ, maxAttempts = 1)
		public int increment(String id) throws SQLException {
			return incrementWithConflict(id);
		}

		@ActivityMethod(transactional = true, isolation = TransactionIsolation.REPEATABLE_READ,
				serializationRetries = 0, maxAttempts = 2, initialInterval = "PT1S")
		public int incrementNoRunAgain(String id) throws SQLException {
			return incrementWithConflict(id);
		}

		private int incrementWithConflict(String id) throws SQLException {
			record(id);
			String counter = table.replace(".reservation", ".counter");
			int before = this.app.queryForObject("SELECT value FROM " + counter + " WHERE id = 1", Integer.class);
			if (EXECUTIONS.size() == 1) {
				// a concurrent writer, outside the activity's transaction
				try (Connection other = TestDatabase.dataSource().getConnection()) {
					other.setAutoCommit(true);
					other.createStatement()
						.executeUpdate("UPDATE " + counter + " SET value = value + 100 WHERE id = 1");
				}
			}
			this.app.update("UPDATE " + counter + " SET value = value + 1 WHERE id = 1");
			return before + 1;
		}

		/**
		 * Holds its transaction open until released: its run may move to another node
		 * meanwhile.
		 */
		@ActivityMethod(transactional = true, maxAttempts = 3, initialInterval = "PT5S")
		public String reserveSlowly(String id) throws InterruptedException {
			record(id);
			this.app.update("INSERT INTO " + table + " (id, node) VALUES (?, ?)", id + "-" + this.node, this.node);
			if (this.node.equals("a")) {
				hold.await(30, TimeUnit.SECONDS);
			}
			return "reserved " + id + " on " + this.node;
		}

		private void record(String id) {
			EXECUTIONS.add(this.node + ":" + id + ":" + ActivityContext.current().info().attempt());
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCompletion(int status) {
					ENDINGS.add((status == STATUS_COMMITTED) ? "committed" : "rolled back");
				}
			});
		}

	}

	@Workflow("reserve")
	public static class ReserveWorkflow {

		private final Reservations reservations;

		public ReserveWorkflow(Reservations reservations) {
			this.reservations = reservations;
		}

		@WorkflowRun
		public String run(String what) throws Exception {
			String[] parts = what.split(":", 2);
			return switch (parts[0]) {
				case "ok" -> this.reservations.reserve(parts[1]);
				case "fail-once" -> this.reservations.reserveFailingOnce(parts[1]);
				case "fail" -> this.reservations.reserveAlwaysFailing(parts[1]);
				case "increment" -> Integer.toString(this.reservations.increment(parts[1]));
				case "increment-no-run-again" -> Integer.toString(this.reservations.incrementNoRunAgain(parts[1]));
				case "slow" -> this.reservations.reserveSlowly(parts[1]);
				default -> throw new IllegalArgumentException(what);
			};
		}

	}

	private WorkflowEngine engine(String node) {
		return engine(node, this.engines.builder());
	}

	private WorkflowEngine engine(String node, WorkflowEngine.Builder builder) {
		return this.engines.start(builder.register(ReserveWorkflow.class).registerActivities(new Reservations(node)));
	}

	private List<String> rows() {
		return this.jdbc.queryForList("SELECT id || '@' || node FROM " + table + " ORDER BY id", String.class);
	}

	@Test
	void theWritesAndTheCompletionCommitTogether() {
		WorkflowEngine engine = engine("a");
		WorkflowHandle<String> handle = engine.client().start(ReserveWorkflow::run, "ok:r1", StartOptions.withId("w1"));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("reserved r1 on a");
		assertThat(rows()).containsExactly("r1@a", "r1-jdbc@a");
		assertThat(ENDINGS).containsExactly("committed");
		assertThat(handle.history().stream().map(HistoryEvent::type)).contains("ACTIVITY_COMPLETED");
		// the row holding the result is gone once the history holds it
		await().until(() -> this.engines.count("activity") == 0);
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aFailedAttemptRollsItsWritesBackAndTheRetryCommits() {
		WorkflowEngine engine = engine("a");
		WorkflowHandle<String> handle = engine.client()
			.start(ReserveWorkflow::run, "fail-once:r2", StartOptions.withId("w2"));
		await().until(() -> EXECUTIONS.size() == 1 && ENDINGS.size() == 1);
		assertThat(rows()).isEmpty();
		this.engines.clock.advance(Duration.ofSeconds(1));
		// the first attempt's insert rolled back, else the second one's would violate the
		// primary key
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("reserved r2");
		assertThat(rows()).containsExactly("r2@a");
		assertThat(EXECUTIONS).containsExactly("a:r2:1", "a:r2:2");
		assertThat(ENDINGS).containsExactly("rolled back", "committed");
		Engines.assertReplays(engine, handle.runId());
	}

	@Test
	void aFinalFailureLeavesNoWrites() {
		WorkflowEngine engine = engine("a");
		WorkflowHandle<String> handle = engine.client()
			.start(ReserveWorkflow::run, "fail:r3", StartOptions.withId("w3"));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.cause()
			.isInstanceOf(ActivityFailure.class)
			.cause()
			.hasMessageContaining("out of stock");
		assertThat(rows()).isEmpty();
		assertThat(ENDINGS).containsExactly("rolled back");
		assertThat(this.engines.count("activity")).isZero();
	}

	@Test
	void aSerializationFailureRunsTheTransactionAgainWithinTheAttempt() {
		WorkflowEngine engine = engine("a");
		WorkflowHandle<String> handle = engine.client()
			.start(ReserveWorkflow::run, "increment:c1", StartOptions.withId("w4"));
		// the second run read the concurrent writer's 100 (maxAttempts = 1: no second
		// attempt was allowed)
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("101");
		assertThat(EXECUTIONS).containsExactly("a:c1:1", "a:c1:1");
		assertThat(ENDINGS).containsExactly("rolled back", "committed");
		assertThat(this.jdbc.queryForObject("SELECT value FROM " + this.engines.schema + "_app.counter", Integer.class))
			.isEqualTo(101);
	}

	@Test
	void withoutRunsAgainASerializationFailureFailsTheAttempt() {
		WorkflowEngine engine = engine("a");
		WorkflowHandle<String> handle = engine.client()
			.start(ReserveWorkflow::run, "increment-no-run-again:c2", StartOptions.withId("w5"));
		await().until(() -> !handle.describe().pendingActivities().isEmpty()
				&& handle.describe().pendingActivities().get(0).attempt() == 2);
		assertThat(handle.describe().pendingActivities().get(0).lastFailure()).contains("serialize");
		this.engines.clock.advance(Duration.ofSeconds(1));
		assertThat(handle.result(Duration.ofSeconds(20))).isEqualTo("101");
		assertThat(EXECUTIONS).containsExactly("a:c2:1", "a:c2:2");
	}

	@Test
	void aStaleAttemptRollsBackWhenItsRunMovedToAnotherNode() {
		hold = new CountDownLatch(1);
		StallingHooks hooks = new StallingHooks();
		WorkflowEngine a = engine("a", this.engines.builder().hooks(hooks));
		WorkflowHandle<String> handle = a.client().start(ReserveWorkflow::run, "slow:r6", StartOptions.withId("w6"));
		await().until(() -> EXECUTIONS.size() == 1);
		// node a freezes (its heartbeats stop) while its attempt holds the transaction
		// open; b takes the run over
		hooks.stallHeartbeats = true;
		// observed through b: a, its heartbeat stalled past its lease, fences itself and
		// answers no calls
		WorkflowHandle<String> seen = engine("b").client().handle("w6", String.class);
		await().until(() -> !seen.describe().pendingActivities().isEmpty()
				&& seen.describe().pendingActivities().get(0).attempt() == 2);
		this.engines.clock.advance(Duration.ofSeconds(5));
		assertThat(seen.result(Duration.ofSeconds(20))).isEqualTo("reserved r6 on b");
		// a's attempt ends: its fenced completion write finds the run gone, and its
		// insert rolls back
		hold.countDown();
		await().until(() -> ENDINGS.size() == 2);
		assertThat(ENDINGS).containsExactlyInAnyOrder("committed", "rolled back");
		assertThat(rows()).containsExactly("r6-b@b");
		assertThat(EXECUTIONS).containsExactly("a:r6:1", "b:r6:2");
		hooks.release();
	}

	@Test
	void aResultCommittedBeforeTheNodeDiedIsHandedOverNotRunAgain() {
		StallingHooks hooks = new StallingHooks();
		stallAfterCommit = hooks;
		WorkflowEngine a = engine("a", this.engines.builder().hooks(hooks));
		WorkflowHandle<String> handle = a.client().start(ReserveWorkflow::run, "ok:r7", StartOptions.withId("w7"));
		// a committed the activity's transaction, then froze before the result reached
		// the history
		await().until(() -> ENDINGS.size() == 1);
		assertThat(ENDINGS).containsExactly("committed");
		assertThat(this.engines.count("activity")).isOne();
		WorkflowEngine b = engine("b");
		// observed through b: a, its heartbeat stalled past its lease, fences itself and
		// answers no calls
		assertThat(b.client().handle("w7", String.class).result(Duration.ofSeconds(20))).isEqualTo("reserved r7 on a");
		assertThat(EXECUTIONS).containsExactly("a:r7:1");
		assertThat(rows()).containsExactly("r7@a", "r7-jdbc@a");
		hooks.release();
		await().until(() -> this.engines.count("activity") == 0);
		Engines.assertReplays(b, handle.runId());
	}

	@Activity
	public static class QueuedAndTransactional {

		@ActivityMethod(transactional = true, taskQueue = "elsewhere")
		public void both() {
		}

	}

	@Workflow("reserve-on-queue")
	public static class ReserveOnQueueWorkflow {

		@WorkflowRun
		public String run(String id) throws SQLException {
			return Workflows.activities(Reservations.class, ActivityOptions.builder().taskQueue("elsewhere").build())
				.reserve(id);
		}

	}

	@Test
	void aTransactionalActivitySentToATaskQueueFailsWithoutRunning() {
		this.engines.start(this.engines.builder().register(ReserveOnQueueWorkflow.class));
		WorkflowEngine worker = this.engines.start(this.engines.builder()
			.runWorkflows(false)
			.activityTaskQueues("elsewhere")
			.registerActivities(new Reservations("q")));
		WorkflowHandle<String> handle = worker.client()
			.start(ReserveOnQueueWorkflow::run, "r9", StartOptions.withId("w9"));
		assertThatThrownBy(() -> handle.result(Duration.ofSeconds(20))).isInstanceOf(WorkflowFailedException.class)
			.cause()
			.isInstanceOf(ActivityFailure.class)
			.cause()
			.satisfies((ex) -> assertThat(((ApplicationFailure) ex).getType()).isEqualTo("TransactionalActivity"));
		assertThat(EXECUTIONS).isEmpty();
		assertThat(rows()).isEmpty();
	}

	@Test
	void aTransactionalActivityOnATaskQueueIsRefused() {
		assertThatThrownBy(() -> this.engines.builder().registerActivities(new QueuedAndTransactional()).build())
			.isInstanceOf(InvalidActivityDefinitionException.class)
			.hasMessageContaining("transactional");
	}

}
