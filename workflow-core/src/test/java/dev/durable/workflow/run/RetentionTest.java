package dev.durable.workflow.run;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.durable.workflow.ChildOptions;
import dev.durable.workflow.ParentClosePolicy;
import dev.durable.workflow.QueryMethod;
import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.client.WorkflowNotFoundException;
import dev.durable.workflow.client.WorkflowStatus;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Retention (DESIGN 4.1): closed runs, their history and deduplication records are
 * deleted after the retention, in small batches; open and recently closed runs, and the
 * deduplication records of workflow ids still in use, stay.
 */
@Timeout(120)
class RetentionTest {

	private static final List<String> RUN_TABLES = List.of("workflow_run", "run_payload", "history", "visibility",
			"inbox", "timer", "activity");

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	/** Receives {@code count} signals named "item" and joins them. */
	@Workflow(value = "ret-receiver", receives = { "item" })
	public static class Receiver {

		private final List<String> received = new ArrayList<>();

		@WorkflowRun
		public String run(int count) {
			for (int i = 0; i < count; i++) {
				this.received.add(Workflows.receive("item", String.class));
			}
			return String.join(",", this.received);
		}

		@QueryMethod
		public List<String> received() {
			return this.received;
		}

	}

	/** Starts a child it abandons, and closes at once. */
	@Workflow("ret-parent")
	public static class Parent {

		@WorkflowRun
		public String run(String childId) {
			Workflows
				.startChild(Receiver::run, 1,
						ChildOptions.withId(childId).withParentClosePolicy(ParentClosePolicy.ABANDON))
				.started()
				.get();
			return "left " + childId;
		}

	}

	/** Executes workflows and never deletes anything (retention disabled). */
	private WorkflowEngine worker() {
		return this.engines
			.start(this.engines.builder().register(Receiver.class, Parent.class).retention(Duration.ZERO));
	}

	/**
	 * A client-only node with the default retention: no background loop, retention on
	 * demand.
	 */
	private WorkflowEngine janitor() {
		return this.engines.start(this.engines.builder().worker(false));
	}

	@Test
	void deletesOldClosedRunsWithAllTheirRowsAndKeepsOpenAndRecentOnes() {
		WorkflowEngine worker = worker();
		WorkflowEngine janitor = janitor();
		assertThat(EngineInternals.node(janitor).config().retention()).isEqualTo(Duration.ofDays(7));
		var client = worker.client();

		// day 0: a run that completes, with a signal key
		WorkflowHandle<String> done = client.start(Receiver::run, 1, StartOptions.withId("done"));
		done.signal("item", "x", "done-key");
		assertThat(done.result(Duration.ofSeconds(10))).isEqualTo("x");
		UUID doneRun = done.runId();
		// whatever a closed run may still hold: a late report of a child, say
		this.engines.jdbc()
			.update("INSERT INTO " + this.engines.schema + ".inbox (run_id, kind, name) VALUES (?, 'CHILD_COMPLETED',"
					+ " '9')", doneRun);
		this.engines.jdbc()
			.update("INSERT INTO " + this.engines.schema + ".timer (run_id, seq, fire_at) VALUES (?, 7, ?)", doneRun,
					Timestamp.from(this.engines.clock.instant()));
		this.engines.jdbc()
			.update("INSERT INTO " + this.engines.schema + ".activity (run_id, seq, activity_type, scheduled_at,"
					+ " next_attempt_at) VALUES (?, 8, 'leftover', ?, ?)", doneRun,
					Timestamp.from(this.engines.clock.instant()), Timestamp.from(this.engines.clock.instant()));
		assertThat(rows(doneRun)).containsEntry("inbox", 1).containsEntry("timer", 1).containsEntry("activity", 1);

		// day 0: a run that stays open, with a signal key
		WorkflowHandle<String> open = client.start(Receiver::run, 2, StartOptions.withId("open"));
		open.signal("item", "o1", "open-key");
		await().until(() -> open.query(Receiver::received).size() == 1);

		// day 0: a closed run whose workflow id has an open run later
		WorkflowHandle<String> reusedFirst = client.start(Receiver::run, 1, StartOptions.withId("reused"));
		reusedFirst.signal("item", "r1", "reused-1");
		assertThat(reusedFirst.result(Duration.ofSeconds(10))).isEqualTo("r1");
		UUID reusedFirstRun = reusedFirst.runId();
		WorkflowHandle<String> reusedSecond = client.start(Receiver::run, 1, StartOptions.withId("reused"));
		await().until(() -> reusedSecond.describe().workflowTasks() == 1);

		// day 0: a closed run whose workflow id has a recent closed run later
		WorkflowHandle<String> twiceFirst = client.start(Receiver::run, 1, StartOptions.withId("twice"));
		twiceFirst.signal("item", "t1", "twice-1");
		assertThat(twiceFirst.result(Duration.ofSeconds(10))).isEqualTo("t1");
		UUID twiceFirstRun = twiceFirst.runId();

		// day 0: a parent that closes, leaving an open child
		WorkflowHandle<String> parent = client.start(Parent::run, "abandoned", StartOptions.withId("parent"));
		assertThat(parent.result(Duration.ofSeconds(10))).isEqualTo("left abandoned");
		UUID parentRun = parent.runId();
		WorkflowHandle<Object> child = client.handle("abandoned");
		await().until(() -> child.describe().workflowTasks() == 1);
		UUID childRun = child.describe().runId();

		// day 5: the second run of "twice" closes
		this.engines.clock.advance(Duration.ofDays(5));
		WorkflowHandle<String> twiceSecond = client.start(Receiver::run, 1, StartOptions.withId("twice"));
		twiceSecond.signal("item", "t2", "twice-2");
		assertThat(twiceSecond.result(Duration.ofSeconds(10))).isEqualTo("t2");

		// day 8: the runs closed on day 0 are past the retention of 7 days
		this.engines.clock.advance(Duration.ofDays(3));
		assertThat(EngineInternals.node(worker).retainOnce()).as("retention disabled").isZero();
		assertThat(this.engines.count("workflow_run")).isEqualTo(8);
		assertThat(EngineInternals.node(janitor).retainOnce()).isEqualTo(4);
		assertThat(EngineInternals.node(janitor).retainOnce()).isZero();

		for (UUID gone : List.of(doneRun, reusedFirstRun, twiceFirstRun, parentRun)) {
			assertThat(rows(gone).values()).as("rows of deleted run %s", gone).containsOnly(0);
		}
		assertThatThrownBy(() -> client.handle("done").describe()).isInstanceOf(WorkflowNotFoundException.class);
		assertThat(dedupKeys()).as("the keys of workflow ids still in use stay")
			.containsExactlyInAnyOrder("open/open-key", "reused/reused-1", "twice/twice-1", "twice/twice-2");
		for (UUID kept : List.of(open.runId(), reusedSecond.runId(), twiceSecond.runId(), childRun)) {
			assertThat(rows(kept)).as("rows of kept run %s", kept)
				.containsEntry("workflow_run", 1)
				.containsEntry("run_payload", 1)
				.containsEntry("visibility", 1);
			assertThat(rows(kept).get("history")).as("history of kept run %s", kept).isPositive();
		}
		assertThat(open.query(Receiver::received)).containsExactly("o1");

		// a retried key stays deduplicated while the workflow id is in use
		reusedSecond.signal("item", "r1", "reused-1");
		reusedSecond.signal("item", "r2", "reused-2");
		assertThat(reusedSecond.result(Duration.ofSeconds(10))).isEqualTo("r2");

		// the abandoned child of the deleted parent still works; its report to the parent
		// is dropped
		assertThat(child.describe().status()).isEqualTo(WorkflowStatus.RUNNING);
		child.signal("item", "c1");
		assertThat(child.result(Duration.ofSeconds(10))).isEqualTo("c1");
		await().until(() -> count("inbox", parentRun) == 1);
		assertThat(EngineInternals.node(janitor).retainOnce()).isZero();
		assertThat(count("inbox", parentRun)).as("orphaned inbox item").isZero();

		// day 8: the last open run closes
		open.signal("item", "o2", "open-2");
		assertThat(open.result(Duration.ofSeconds(10))).isEqualTo("o1,o2");

		// day 15 less an hour: the second run of "twice" (day 5) goes, and the keys of
		// "twice" with it
		this.engines.clock.advance(Duration.ofDays(7).minusHours(1));
		assertThat(EngineInternals.node(janitor).retainOnce()).isEqualTo(1);
		assertThat(dedupKeys()).containsExactlyInAnyOrder("open/open-key", "open/open-2", "reused/reused-1",
				"reused/reused-2");

		// day 15 and an hour: everything closed on day 8 goes, and with it every key
		this.engines.clock.advance(Duration.ofHours(2));
		assertThat(EngineInternals.node(janitor).retainOnce()).isEqualTo(3);
		for (String table : RUN_TABLES) {
			assertThat(this.engines.count(table)).as(table).isZero();
		}
		assertThat(this.engines.count("dedup")).isZero();
	}

	@Test
	void deletesInSmallBatches() {
		WorkflowEngine janitor = janitor();
		Instant now = this.engines.clock.instant();
		insertClosedRuns("old-", 1_200, now.minus(Duration.ofDays(30)));
		insertClosedRuns("recent-", 10, now.minus(Duration.ofDays(6)));
		insertOpenRuns("open-", 5, now.minus(Duration.ofDays(60)));
		assertThat(this.engines.count("workflow_run")).isEqualTo(1_215);

		List<Integer> batches = new ArrayList<>();
		int deleted;
		do {
			deleted = EngineInternals.node(janitor).retainOnce();
			batches.add(deleted);
			// every batch is whole: a run goes with all its rows
			int runs = this.engines.count("workflow_run");
			assertThat(this.engines.count("run_payload")).isEqualTo(runs);
			assertThat(this.engines.count("visibility")).isEqualTo(runs);
			assertThat(this.engines.count("history")).isEqualTo(runs);
			assertThat(this.engines.count("inbox")).isEqualTo(runs);
		}
		while (deleted > 0);
		assertThat(batches).containsExactly(500, 500, 200, 0);
		assertThat(this.engines.jdbc()
			.queryForList("SELECT workflow_id FROM " + this.engines.schema + ".workflow_run", String.class)).hasSize(15)
			.allMatch((id) -> id.startsWith("recent-") || id.startsWith("open-"));
		assertThat(this.engines.count("dedup")).isEqualTo(15);
	}

	@Test
	void topicEventsGoOnceDispatchedLongerAgoThanTheRetentionAndNothingStillReadsThem() {
		WorkflowEngine janitor = janitor();
		String schema = this.engines.schema;
		Instant now = this.engines.clock.instant();
		String insert = "INSERT INTO " + schema + ".topic_event (namespace, topic, event_id, payload, position,"
				+ " dispatched_at) VALUES ('default', 't', ?, '{}', ?, ?)";
		this.engines.jdbc().update(insert, "old", 1, Timestamp.from(now.minus(Duration.ofDays(8))));
		this.engines.jdbc().update(insert, "old-staged", 2, Timestamp.from(now.minus(Duration.ofDays(8))));
		this.engines.jdbc().update(insert, "recent", 3, Timestamp.from(now.minus(Duration.ofDays(6))));
		this.engines.jdbc()
			.update("INSERT INTO " + schema + ".topic_event (namespace, topic, event_id, payload) VALUES"
					+ " ('default', 't', 'undispatched', '{}')");
		// a delivery staged for a run still reads its event
		this.engines.jdbc()
			.update("INSERT INTO " + schema + ".event_delivery (run_id, wait_seq, namespace, topic, event_id,"
					+ " position) VALUES (?, 1, 'default', 't', 'old-staged', 2)", UUID.randomUUID());
		EngineInternals.node(janitor).retainOnce();
		assertThat(this.engines.jdbc()
			.queryForList("SELECT event_id FROM " + schema + ".topic_event ORDER BY event_id", String.class))
			.containsExactly("old-staged", "recent", "undispatched");
	}

	@Test
	void workerNodesRetainInTheirHousekeeping() {
		WorkflowEngine client = janitor();
		insertClosedRuns("old-", 1_200, this.engines.clock.instant().minus(Duration.ofDays(8)));
		assertThat(EngineInternals.node(client).config().workerEnabled()).isFalse();
		assertThat(this.engines.count("workflow_run")).as("a client node has no housekeeping").isEqualTo(1_200);
		// a worker node retains when it starts, then once a minute
		this.engines.start(this.engines.builder().register(Receiver.class));
		await().atMost(Duration.ofSeconds(30)).until(() -> this.engines.count("workflow_run") == 0);
		assertThat(this.engines.count("dedup")).isZero();
		assertThat(this.engines.count("history")).isZero();
	}

	/**
	 * Inserts closed runs directly, each with a payload, visibility, history, inbox and
	 * dedup row.
	 */
	private void insertClosedRuns(String prefix, int count, Instant closedAt) {
		insertRuns(prefix, count, "COMPLETED", closedAt.minus(Duration.ofMinutes(1)), closedAt);
	}

	private void insertOpenRuns(String prefix, int count, Instant createdAt) {
		insertRuns(prefix, count, "RUNNING", createdAt, null);
	}

	private void insertRuns(String prefix, int count, String status, Instant createdAt, Instant closedAt) {
		String s = this.engines.schema;
		Timestamp created = Timestamp.from(createdAt);
		Timestamp closed = (closedAt != null) ? Timestamp.from(closedAt) : null;
		this.engines.jdbc()
			.queryForObject("WITH r AS (INSERT INTO " + s + ".workflow_run (run_id, namespace, workflow_id,"
					+ " workflow_type, task_queue, status, created_at, closed_at) SELECT gen_random_uuid(), 'default',"
					+ " ? || g, 'bulk', 'default', ?, ?, ?::timestamptz FROM generate_series(1, ?) g"
					+ " RETURNING run_id, workflow_id)," + " p AS (INSERT INTO " + s
					+ ".run_payload (run_id, input, result)"
					+ " SELECT run_id, decode('01', 'hex'), decode('02', 'hex') FROM r)," + " v AS (INSERT INTO " + s
					+ ".visibility (run_id, namespace, workflow_id, workflow_type, status,"
					+ " start_time, close_time) SELECT run_id, 'default', workflow_id, 'bulk', ?, ?, ?::timestamptz FROM r),"
					+ " h AS (INSERT INTO " + s + ".history (run_id, seq, created_at, events)"
					+ " SELECT run_id, 1, ?, decode('00', 'hex') FROM r)," + " i AS (INSERT INTO " + s
					+ ".inbox (run_id, kind, name) SELECT run_id, 'SIGNAL', 'item' FROM r)," + " d AS (INSERT INTO " + s
					+ ".dedup (namespace, workflow_id, kind, dedup_key, run_id, stage)"
					+ " SELECT 'default', workflow_id, 'SIGNAL', 'key', run_id, 'COMPLETED' FROM r)"
					+ " SELECT count(*) FROM r", Integer.class, prefix, status, created, closed, count, status, created,
					closed, created);
	}

	private Map<String, Integer> rows(UUID runId) {
		Map<String, Integer> rows = new LinkedHashMap<>();
		for (String table : RUN_TABLES) {
			rows.put(table, count(table, runId));
		}
		return rows;
	}

	private int count(String table, UUID runId) {
		return this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + "." + table + " WHERE run_id = ?",
					Integer.class, runId);
	}

	private List<String> dedupKeys() {
		return this.engines.jdbc()
			.queryForList("SELECT workflow_id || '/' || dedup_key FROM " + this.engines.schema + ".dedup",
					String.class);
	}

}
