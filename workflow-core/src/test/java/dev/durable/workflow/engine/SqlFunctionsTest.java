package dev.durable.workflow.engine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

import dev.durable.workflow.EventMatch;
import dev.durable.workflow.TopicEvent;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.internal.store.BuildAssignment;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The SQL functions of the engine's schema ({@code start_workflow},
 * {@code publish_event}, {@code signal_workflow}, {@code cancel_workflow}) called over
 * plain JDBC, in transactions that commit or roll back, from a trigger, and with no node
 * running: what they write must be what a node claims and runs like a run the client
 * started.
 */
class SqlFunctionsTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** An order as the application's tables hold it (JSON in, as SQL writes it). */
	public record Order(String id, int amount) {
	}

	/** Counts its executions per order: a run that ran twice would show. */
	@Activity
	public static class Shipping {

		static final Map<String, AtomicInteger> SHIPPED = new ConcurrentHashMap<>();

		public String ship(String orderId, int amount) {
			SHIPPED.computeIfAbsent(orderId, (k) -> new AtomicInteger()).incrementAndGet();
			return amount + "x" + orderId;
		}

	}

	/** Ships an order. */
	@Workflow("sql-order")
	public static class OrderWorkflow {

		private final Shipping shipping;

		public OrderWorkflow(Shipping shipping) {
			this.shipping = shipping;
		}

		@WorkflowRun
		public String run(Order order) {
			return "shipped " + this.shipping.ship(order.id(), order.amount());
		}

	}

	/** Waits for the payment of its order on topic "payments". */
	@Workflow("sql-payment-waiter")
	public static class PaymentWaiter {

		@WorkflowRun
		public String run(String orderId) {
			TopicEvent<Map> paid = Workflows.awaitEvent("payments", EventMatch.field("orderId", orderId), Map.class);
			return paid.eventId() + ":" + paid.payload().get("cents");
		}

	}

	/**
	 * Receives {@code count} "item" signals, in order; waits until canceled otherwise.
	 */
	@Workflow(value = "sql-receiver", receives = "item")
	public static class Receiver {

		@WorkflowRun
		public List<String> run(int count) {
			List<String> items = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				items.add(Workflows.receive("item", String.class));
			}
			return items;
		}

	}

	private WorkflowEngine engine() {
		return engine(this.engines.builder());
	}

	private WorkflowEngine engine(WorkflowEngine.Builder builder) {
		return this.engines.start(builder.register(OrderWorkflow.class, Receiver.class, PaymentWaiter.class)
			.registerActivities(new Shipping()));
	}

	private String fn(String name) {
		return this.engines.schema + "." + name;
	}

	/** Runs the statement in a transaction that commits or rolls back; its one value. */
	private Object call(boolean commit, String sql, Object... args) throws SQLException {
		try (Connection connection = TestDatabase.dataSource().getConnection()) {
			connection.setAutoCommit(false);
			try {
				Object value = query(connection, sql, args);
				if (commit) {
					connection.commit();
				}
				else {
					connection.rollback();
				}
				return value;
			}
			catch (SQLException | RuntimeException ex) {
				connection.rollback();
				throw ex;
			}
			finally {
				connection.setAutoCommit(true);
			}
		}
	}

	private Object call(String sql, Object... args) throws SQLException {
		return call(true, sql, args);
	}

	private static Object query(Connection connection, String sql, Object... args) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			for (int i = 0; i < args.length; i++) {
				statement.setObject(i + 1, args[i]);
			}
			try (ResultSet rs = statement.executeQuery()) {
				return rs.next() ? rs.getObject(1) : null;
			}
		}
	}

	private UUID start(String type, String id, String input, String options) throws SQLException {
		return (UUID) call("SELECT " + fn("start_workflow") + "(?, ?, ?::jsonb, ?::jsonb)", type, id, input, options);
	}

	private int rows() {
		return this.engines.count("workflow_run") + this.engines.count("run_payload") + this.engines.count("visibility")
				+ this.engines.count("queued_run") + this.engines.count("inbox") + this.engines.count("dedup");
	}

	private String status(UUID runId) {
		return this.engines.jdbc()
			.queryForObject("SELECT status FROM " + this.engines.schema + ".workflow_run WHERE run_id = ?",
					String.class, runId);
	}

	@Test
	void aCommittedStartRunsOnANodeAndReplays() throws SQLException {
		WorkflowEngine engine = engine();
		UUID runId = start("sql-order", "order-1", "{\"id\": \"o-1\", \"amount\": 3}", "{}");
		WorkflowHandle<String> handle = engine.client().handle("order-1", String.class);
		assertThat(handle.result(Duration.ofSeconds(10))).isEqualTo("shipped 3xo-1");
		assertThat(handle.runId()).isEqualTo(runId);
		assertThat(handle.describe().workflowType()).isEqualTo("sql-order");
		Engines.assertReplays(engine, runId);
	}

	@Test
	void aRolledBackStartLeavesNothingAndWakesNoOne() throws SQLException {
		try (Connection listener = TestDatabase.dataSource().getConnection()) {
			listener.setAutoCommit(true);
			try (Statement statement = listener.createStatement()) {
				statement.execute("LISTEN durable_" + this.engines.schema);
			}
			try {
				call(false, "SELECT " + fn("start_workflow") + "('sql-order', 'order-2', '{\"id\": \"o-2\"}')");
				assertThat(rows()).isZero();
				assertThat(notifications(listener)).isEmpty();
				// the same call committed: the notification comes with the commit
				call(true, "SELECT " + fn("start_workflow") + "('sql-order', 'order-2', '{\"id\": \"o-2\"}')");
				assertThat(notifications(listener)).contains("*");
			}
			finally {
				try (Statement statement = listener.createStatement()) {
					statement.execute("UNLISTEN *");
				}
			}
		}
	}

	/** The wake-ups sent on the schema's channel within half a second. */
	private List<String> notifications(Connection listener) throws SQLException {
		PGNotification[] got = listener.unwrap(PGConnection.class).getNotifications(500);
		List<String> texts = new ArrayList<>();
		if (got != null) {
			for (PGNotification notification : got) {
				texts.add(notification.getParameter());
			}
		}
		return texts;
	}

	@Test
	void aNodeWithoutPollsStartsTheRunOnTheNotification() throws SQLException {
		// no fallback poll within the test: only the NOTIFY sent at the commit wakes it
		WorkflowEngine engine = engine(this.engines.builder().pollInterval(Duration.ofMinutes(10)));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.engines.count("node") == 1 && this.engines.jdbc()
				.queryForObject("SELECT count(*) FROM pg_stat_activity WHERE query = ?", Integer.class,
						"LISTEN durable_" + this.engines.schema) > 0);
		start("sql-order", "order-3", "{\"id\": \"o-3\", \"amount\": 1}", null);
		assertThat(engine.client().handle("order-3", String.class).result(Duration.ofSeconds(5)))
			.isEqualTo("shipped 1xo-3");
	}

	@Test
	void badArgumentsFailClearlyAndWriteNothing() {
		engine();
		String start = "SELECT " + fn("start_workflow") + "(?, ?, ?::jsonb, ?::jsonb)";
		expectError("22023", "a workflow type is required", start, null, "x", null, "{}");
		expectError("22023", "a workflow type is required", start, "  ", "x", null, "{}");
		expectError("22023", "invalid workflow id", start, "sql-order", null, null, "{}");
		expectError("22023", "invalid workflow id", start, "sql-order", "", null, "{}");
		expectError("22023", "invalid workflow id", start, "sql-order", "has space", null, "{}");
		expectError("22P02", "invalid input syntax for type json", start, "sql-order", "x", "not json", "{}");
		expectError("22023", "unknown idReusePolicy 'NEVER'", start, "sql-order", "x", null,
				"{\"idReusePolicy\": \"NEVER\"}");
		expectError("22023", "unknown idConflictPolicy", start, "sql-order", "x", null,
				"{\"idConflictPolicy\": \"fail\"}");
		expectError("22023", "TERMINATE_IF_RUNNING is not supported", start, "sql-order", "x", null,
				"{\"idReusePolicy\": \"TERMINATE_IF_RUNNING\"}");
		expectError("22023", "startDelay must not be negative", start, "sql-order", "x", null,
				"{\"startDelay\": \"PT-5M\"}");
		expectError("22023", "ISO-8601 durations", start, "sql-order", "x", null, "{\"startDelay\": \"soon\"}");
		expectError("22023", "unknown start option 'taskqueue'", start, "sql-order", "x", null,
				"{\"taskqueue\": \"a\"}");
		expectError("22023", "options must be a JSON object", start, "sql-order", "x", null, "[]");
		expectError("22023", "a priority or partition key needs a queue", start, "sql-order", "x", null,
				"{\"priority\": 3}");
		expectError("22023", "no node declared the queue 'nowhere'", start, "sql-order", "x", null,
				"{\"queue\": \"nowhere\"}");
		expectError("22023", "memo keys", start, "sql-order", "x", null, "{\"memo\": {\"a b\": 1}}");
		expectError("22023", "search attributes have keys", start, "sql-order", "x", null,
				"{\"searchAttributes\": {\"nested\": {\"a\": 1}}}");
		String signal = "SELECT " + fn("signal_workflow") + "(?, ?, ?::jsonb, ?)";
		expectError("22023", "a workflow id is required", signal, null, "item", null, null);
		expectError("22023", "a signal name is required", signal, "x", " ", null, null);
		expectError("P0002", "no workflow with id 'nobody'", signal, "nobody", "item", null, null);
		String cancel = "SELECT " + fn("cancel_workflow") + "(?, ?)";
		expectError("22023", "a workflow id is required", cancel, "", null);
		expectError("P0002", "no workflow with id 'nobody'", cancel, "nobody", null);
		assertThat(rows()).isZero();
	}

	private void expectError(String sqlState, String message, String sql, Object... args) {
		assertThatThrownBy(() -> call(sql, args)).isInstanceOf(SQLException.class)
			.hasMessageContaining(message)
			.satisfies((ex) -> assertThat(((SQLException) ex).getSQLState()).as(message).isEqualTo(sqlState));
	}

	@Test
	void idPoliciesAndRequestIdsAnswerAsTheClientDoes() throws SQLException {
		WorkflowEngine engine = engine();
		UUID open = start("sql-receiver", "r-1", "1", "{\"requestId\": \"req-1\"}");
		// the same request again: its run, nothing new
		assertThat(start("sql-receiver", "r-1", "1", "{\"requestId\": \"req-1\"}")).isEqualTo(open);
		assertThatThrownBy(() -> start("sql-receiver", "r-1", "1", "{}")).isInstanceOf(SQLException.class)
			.hasMessageContaining("durable: workflow id 'r-1' is already running (run " + open + ")")
			.satisfies((ex) -> assertThat(((SQLException) ex).getSQLState()).isEqualTo("23505"));
		assertThat(start("sql-receiver", "r-1", "1", "{\"idConflictPolicy\": \"USE_EXISTING\"}")).isEqualTo(open);
		assertThat(this.engines.count("workflow_run")).isOne();
		call("SELECT " + fn("signal_workflow") + "('r-1', 'item', '\"x\"')");
		assertThat(engine.client().handle("r-1", Object.class).result(Duration.ofSeconds(10))).isEqualTo(List.of("x"));
		assertThatThrownBy(() -> start("sql-receiver", "r-1", "1", "{\"idReusePolicy\": \"REJECT_DUPLICATE\"}"))
			.isInstanceOf(SQLException.class)
			.hasMessageContaining("was already used by run " + open + " (COMPLETED)");
		assertThatThrownBy(
				() -> start("sql-receiver", "r-1", "1", "{\"idReusePolicy\": \"ALLOW_DUPLICATE_FAILED_ONLY\"}"))
			.isInstanceOf(SQLException.class)
			.hasMessageContaining("forbids another");
		assertThat(this.engines.count("workflow_run")).isOne();
		UUID again = start("sql-receiver", "r-1", "0", "{}");
		assertThat(engine.client().handle("r-1", Object.class).result(Duration.ofSeconds(10))).isEqualTo(List.of());
		assertThat(again).isNotEqualTo(open);
	}

	@Test
	void aStartRacingAnUncommittedStartOfTheIdWaitsForItAndAnswersByTheIdPolicy() throws Exception {
		String sql = "SELECT " + fn("start_workflow") + "('sql-receiver', 'race', '1', ?::jsonb)";
		// two threads of their own: the common pool may have one on a small machine
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try (Connection first = TestDatabase.openTransaction()) {
			UUID firstRun = (UUID) query(first, sql, "{}");
			CompletableFuture<Object> failing = CompletableFuture.supplyAsync(() -> attempt(sql, "{}"), threads);
			CompletableFuture<Object> reusing = CompletableFuture
				.supplyAsync(() -> attempt(sql, "{\"idConflictPolicy\": \"USE_EXISTING\"}"), threads);
			// both wait for the first transaction's row under the unique index of open
			// ids
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.engines.jdbc()
					.queryForObject(
							"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
									+ " AND query LIKE '%start_workflow(''sql-receiver'', ''race''%'",
							Integer.class) == 2);
			first.commit();
			assertThat(failing.get(10, TimeUnit.SECONDS)).isInstanceOf(SQLException.class)
				.asString()
				.contains("durable: workflow id 'race' is already running (run " + firstRun + ")");
			assertThat(reusing.get(10, TimeUnit.SECONDS)).isEqualTo(firstRun);
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(this.engines.count("workflow_run")).isOne();
	}

	/** The call's value, or the SQLException it threw. */
	private Object attempt(String sql, Object... args) {
		try {
			return call(sql, args);
		}
		catch (SQLException ex) {
			return ex;
		}
	}

	@Test
	void aTriggerStartsARunPerInsertedRowOnlyWhenTheInsertCommits() throws SQLException {
		WorkflowEngine engine = engine();
		String table = this.engines.schema + ".app_order";
		this.engines.jdbc().execute("CREATE TABLE " + table + " (id text PRIMARY KEY, amount int NOT NULL)");
		this.engines.jdbc()
			.execute("CREATE FUNCTION " + this.engines.schema + ".ship_order() RETURNS trigger LANGUAGE plpgsql AS $$"
					+ " BEGIN PERFORM " + fn("start_workflow") + "('sql-order', 'ship-' || NEW.id,"
					+ " jsonb_build_object('id', NEW.id, 'amount', NEW.amount)); RETURN NEW; END $$");
		this.engines.jdbc()
			.execute("CREATE TRIGGER ship AFTER INSERT ON " + table + " FOR EACH ROW EXECUTE FUNCTION "
					+ this.engines.schema + ".ship_order()");
		try (Connection connection = TestDatabase.dataSource().getConnection()) {
			connection.setAutoCommit(false);
			try (Statement statement = connection.createStatement()) {
				statement.execute("INSERT INTO " + table + " VALUES ('t-1', 1), ('t-2', 2)");
				statement.execute("INSERT INTO " + table + " VALUES ('t-3', 3)");
				connection.commit();
				statement.execute("INSERT INTO " + table + " VALUES ('t-4', 4)");
				connection.rollback();
			}
			finally {
				connection.setAutoCommit(true);
			}
		}
		for (int i = 1; i <= 3; i++) {
			assertThat(engine.client().handle("ship-t-" + i, String.class).result(Duration.ofSeconds(10)))
				.isEqualTo("shipped " + i + "xt-" + i);
		}
		assertThat(this.engines.count("workflow_run")).isEqualTo(3);
	}

	@Test
	void aRunStartedWhileNoNodeRunsCompletesOnceANodeStarts() throws SQLException {
		// a node served the type, then stopped: the start commits with no node to take it
		engine().shutdown();
		UUID runId = start("sql-order", "order-late", "{\"id\": \"o-late\", \"amount\": 5}", "{}");
		assertThat(status(runId)).isEqualTo("RUNNING");
		WorkflowEngine engine = engine();
		assertThat(engine.client().handle("order-late", String.class).result(Duration.ofSeconds(10)))
			.isEqualTo("shipped 5xo-late");
		assertThat(Shipping.SHIPPED.get("o-late")).hasValue(1);
		Engines.assertReplays(engine, runId);
	}

	@Test
	void aSignalIsDeliveredOncePerIdempotencyKeyAndNotWhenRolledBack() throws SQLException {
		WorkflowEngine engine = engine();
		UUID runId = start("sql-receiver", "r-2", "2", "{}");
		String signal = "SELECT " + fn("signal_workflow") + "(?, ?, ?::jsonb, ?)";
		assertThat(call(false, signal, "r-2", "item", "\"rolled back\"", null)).isEqualTo(runId);
		assertThat(this.engines.count("inbox") + this.engines.count("dedup")).isZero();
		assertThat(call(signal, "r-2", "item", "\"a\"", "key-a")).isEqualTo(runId);
		assertThat(call(signal, "r-2", "item", "\"a again\"", "key-a")).isEqualTo(runId);
		assertThat(call(signal, "r-2", "item", "\"b\"", "key-b")).isEqualTo(runId);
		assertThat(engine.client().handle("r-2", Object.class).result(Duration.ofSeconds(10)))
			.isEqualTo(List.of("a", "b"));
		Engines.assertReplays(engine, runId);
		// a key already used answers as before; a new send to the closed run fails
		assertThat(call(signal, "r-2", "item", "\"a\"", "key-a")).isEqualTo(runId);
		assertThatThrownBy(() -> call(signal, "r-2", "item", "\"c\"", null)).isInstanceOf(SQLException.class)
			.hasMessageContaining("durable: workflow r-2 (run " + runId + ") is closed: COMPLETED")
			.satisfies((ex) -> assertThat(((SQLException) ex).getSQLState()).isEqualTo("55000"));
		assertThatThrownBy(() -> call(signal, "r-2", "item", "\"c\"", "key-c")).isInstanceOf(SQLException.class)
			.hasMessageContaining("is closed");
		assertThat(this.engines.count("dedup")).isEqualTo(2);
	}

	@Test
	void anEventPublishedFromSqlCountsOnlyWhenItCommitsAndOncePerId() throws SQLException {
		WorkflowEngine engine = engine();
		WorkflowHandle<String> waiter = engine.client()
			.start(PaymentWaiter::run, "o-7", StartOptions.withId("pay-o-7"));
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("event_wait") == 1);
		String publish = "SELECT published FROM " + fn("publish_event") + "(?, ?::jsonb, ?)";
		assertThat(call(false, publish, "payments", "{\"orderId\": \"o-7\", \"cents\": 100}", "pay-1")).isEqualTo(true);
		assertThat(this.engines.count("topic_event")).isZero();
		assertThat(call(publish, "payments", "{\"orderId\": \"o-7\", \"cents\": 250}", "pay-2")).isEqualTo(true);
		assertThat(call(publish, "payments", "{\"orderId\": \"o-7\", \"cents\": 999}", "pay-2")).isEqualTo(false);
		assertThat(waiter.result(Duration.ofSeconds(30))).isEqualTo("pay-2:250");
		assertThat(this.engines.count("topic_event")).isEqualTo(1);
		Engines.assertReplays(engine, waiter.runId());

		String publishAny = "SELECT event_id FROM " + fn("publish_event") + "(?, ?::jsonb, ?)";
		expectError("22023", "an event needs a topic", publishAny, " ", "{}", null);
		expectError("22023", "needs a payload", publishAny, "payments", null, null);
		expectError("22023", "an event id must not be blank", publishAny, "payments", "{}", "");
		expectError("22P02", "invalid input syntax for type json", publishAny, "payments", "{oops", null);
		assertThat(this.engines.count("topic_event")).isEqualTo(1);
	}

	@Test
	void aCancelReachesTheRunOnlyWhenItCommits() throws SQLException {
		WorkflowEngine engine = engine();
		UUID runId = start("sql-receiver", "r-3", "1", "{}");
		WorkflowHandle<Object> handle = engine.client().handle("r-3", Object.class);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("history") > 0);
		String cancel = "SELECT " + fn("cancel_workflow") + "(?, ?)";
		assertThat(call(false, cancel, "r-3", "changed my mind")).isEqualTo(runId);
		assertThat(this.engines.count("inbox")).isZero();
		assertThat(handle.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		assertThat(call(cancel, "r-3", "changed my mind")).isEqualTo(runId);
		await().atMost(Duration.ofSeconds(10)).until(() -> handle.describe().status() == WorkflowStatus.CANCELED);
		assertThatThrownBy(() -> call(cancel, "r-3", null)).isInstanceOf(SQLException.class)
			.hasMessageContaining("is closed: CANCELED");
	}

	@Test
	void aStartIntoAQueueWaitsForItsTurn() throws SQLException {
		// a queue admits runs enqueued by its nodes' clock, and a start from SQL is
		// enqueued at the database's time: the engine's clock runs with it, as in
		// production
		this.engines.clock.set(this.engines.jdbc().queryForObject("SELECT now()", Timestamp.class).toInstant());
		this.engines.clock.startRunning();
		WorkflowEngine engine = engine(this.engines.builder().queue(QueueDefinition.named("sql-q").withConcurrency(1)));
		UUID first = start("sql-receiver", "q-1", "1", "{\"queue\": \"sql-q\"}");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.engines.count("history") > 0);
		UUID second = start("sql-receiver", "q-2", "0", "{\"queue\": \"sql-q\", \"priority\": 5}");
		assertThat(this.engines.jdbc()
			.queryForObject(
					"SELECT state || '/' || priority FROM " + this.engines.schema + ".queued_run WHERE run_id = ?",
					String.class, second))
			.isEqualTo("WAITING/5");
		// the first holds the queue's one slot: a run started after the second, outside
		// the
		// queue, runs, and the second has not run a task
		start("sql-order", "q-free", "{\"id\": \"q-free\", \"amount\": 1}", "{}");
		assertThat(engine.client().handle("q-free", String.class).result(Duration.ofSeconds(10)))
			.isEqualTo("shipped 1xq-free");
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".history WHERE run_id = ?", Integer.class,
					second))
			.isZero();
		call("SELECT " + fn("signal_workflow") + "('q-1', 'item', '\"go\"')");
		assertThat(engine.client().handle("q-2", Object.class).result(Duration.ofSeconds(10))).isEqualTo(List.of());
		assertThat(status(first)).isEqualTo("COMPLETED");
	}

	@Test
	void optionsLandWhereTheClientPutsThem() throws SQLException {
		engine();
		UUID runId = start("sql-order", "opts-1", "{\"id\": \"o\"}",
				"{\"startDelay\": \"PT1H\", \"runTimeout\": \"2 hours\", \"taskQueue\": \"elsewhere\","
						+ " \"memo\": {\"note\": {\"a\": [1, null]}, \"gone\": null},"
						+ " \"searchAttributes\": {\"customer\": \"c-1\", \"tags\": [\"x\", \"y\"], \"gone\": null}}");
		Map<String, Object> row = this.engines.jdbc()
			.queryForMap("SELECT r.task_queue, r.pending_input, r.owner_node,"
					+ " extract(epoch FROM r.next_wake_at - r.created_at) AS delay,"
					+ " extract(epoch FROM r.run_deadline - r.created_at) AS timeout, v.memo::text AS memo,"
					+ " v.search_attributes::text AS search, convert_from(p.input, 'UTF8') AS input FROM "
					+ this.engines.schema + ".workflow_run r JOIN " + this.engines.schema
					+ ".visibility v USING (run_id) JOIN " + this.engines.schema
					+ ".run_payload p USING (run_id) WHERE r.run_id = ?", runId);
		assertThat(row).containsEntry("task_queue", "elsewhere")
			.containsEntry("pending_input", false)
			.containsEntry("owner_node", null)
			.containsEntry("memo", "{\"note\": {\"a\": [1, null]}}")
			.containsEntry("search", "{\"tags\": [\"x\", \"y\"], \"customer\": \"c-1\"}")
			.containsEntry("input", "{\"id\": \"o\"}");
		assertThat(((Number) row.get("delay")).intValue()).isEqualTo(3600);
		assertThat(((Number) row.get("timeout")).intValue()).isEqualTo(7200);
	}

	@Test
	void aStartJoinsTheCurrentBuildWithTheClientsBucket() throws SQLException {
		engine();
		this.engines.jdbc()
			.update("INSERT INTO " + this.engines.schema
					+ ".build_routing (namespace, current_build) VALUES ('default', 'v2')");
		for (String id : List.of("b-1", "zzzzzzzzzzzzzzzzzzzz", "order:2026-12-07@shop.example", "Q")) {
			UUID runId = start("not-served-here", id, null, "{}");
			Map<String, Object> row = this.engines.jdbc()
				.queryForMap("SELECT build_id, pinned, ramp_bucket FROM " + this.engines.schema
						+ ".workflow_run WHERE run_id = ?", runId);
			assertThat(row).containsEntry("build_id", "v2")
				.containsEntry("pinned", true)
				.containsEntry("ramp_bucket", BuildAssignment.bucket(id));
		}
	}

}
