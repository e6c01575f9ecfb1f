package dev.durable.workflow.internal.store;

import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fallback polls (every node, every poll interval) read the runs that have work, not
 * every open run: with 10,000 runs parked on a signal (a normal state for long-running
 * workflows), the poll for a node's own runnable runs and the claim of orphaned ones must
 * not visit them all, nor look into the inbox once per parked run.
 *
 * <p>
 * The counts are PostgreSQL's own for the test's transaction
 * ({@code pg_stat_xact_user_tables}): heap rows the statements read from
 * {@code workflow_run}, and index scans of {@code inbox}.
 */
class RunnablePollCostTest {

	private static final int PARKED = 10_000;

	private static final String TYPE = "poll-cost";

	/**
	 * The plans of each execution (custom) and the one a prepared statement may settle on
	 * (generic).
	 */
	private static final List<String> PLANS = List.of("force_custom_plan", "force_generic_plan");

	private final Engines engines = new Engines();

	private final UUID self = UUID.randomUUID();

	private final UUID gone = UUID.randomUUID();

	private final Instant now = Instant.parse("2026-01-01T00:00:00Z");

	private JdbcTemplate jdbc;

	private String schema;

	@BeforeEach
	void parkTenThousandRuns() {
		this.engines.start(this.engines.builder().worker(false)); // migrates the schema
		this.jdbc = this.engines.jdbc();
		this.schema = this.engines.schema;
		// this node is alive; the other one stopped heartbeating long ago
		this.jdbc.update(
				"INSERT INTO " + this.schema + ".node (node_id, node_name, served_types, task_queues,"
						+ " last_heartbeat) VALUES (?, 'self', ARRAY[?], ARRAY['default'], now()),"
						+ " (?, 'gone', ARRAY[?], ARRAY['default'], now() - interval '1 day')",
				this.self, TYPE, this.gone, TYPE);
		this.jdbc.update("INSERT INTO " + this.schema + ".workflow_run (run_id, namespace, workflow_id, workflow_type,"
				+ " task_queue, status, owner_node, epoch, history_seq, created_at) SELECT gen_random_uuid(), 'default',"
				+ " 'parked-' || i, ?, 'default', 'RUNNING', CASE WHEN i % 2 = 0 THEN ?::uuid ELSE ?::uuid END, 1, 1,"
				+ " now() FROM generate_series(1, ?) AS i", TYPE, this.self, this.gone, PARKED);
	}

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void aNodesPollForItsRunnableRunsReadsOnlyThem() {
		UUID input = run("own-input", this.self, "pending_input = true");
		UUID inbox = run("own-inbox", this.self, null);
		this.jdbc.update("INSERT INTO " + this.schema + ".inbox (run_id, kind, payload) VALUES (?, 'COMPLETE', NULL)",
				inbox);
		UUID due = run("own-due", this.self, "next_wake_at = timestamptz '2025-12-31T23:59:00Z'");
		UUID activities = run("own-activities", this.self, "has_activities = true");
		run("own-later", this.self, "next_wake_at = timestamptz '2026-01-01T01:00:00Z'");
		run("own-failing", this.self, "pending_input = true, task_attempt = 2");
		analyze();

		for (String plans : PLANS) {
			Map<String, Long> read = inOneTransaction(plans, (runs) -> {
				List<RunOwnership.Owned> owned = runs.ownedRunnable(this.self, "default", this.now,
						BuildRoute.UNVERSIONED);
				assertThat(owned).extracting(RunOwnership.Owned::runId)
					.containsExactlyInAnyOrder(input, inbox, due, activities);
				assertThat(owned).filteredOn(RunOwnership.Owned::due)
					.extracting(RunOwnership.Owned::runId)
					.containsExactlyInAnyOrder(input, inbox, due);
			});
			assertThat(read.get("runs")).as("workflow_run rows read, " + plans).isLessThan(100);
			assertThat(read.get("inbox")).as("index scans of the inbox, " + plans).isLessThan(10);
		}
	}

	@Test
	void theClaimOfOrphanedRunsReadsOnlyRunsWithWork() {
		UUID input = run("gone-input", this.gone, "pending_input = true");
		UUID inbox = run("gone-inbox", this.gone, null);
		this.jdbc.update("INSERT INTO " + this.schema + ".inbox (run_id, kind, payload) VALUES (?, 'COMPLETE', NULL)",
				inbox);
		UUID due = run("gone-due", this.gone, "next_wake_at = timestamptz '2025-12-31T23:59:00Z'");
		UUID activities = run("gone-activities", this.gone, "has_activities = true");
		UUID ownerless = run("ownerless", null, "pending_input = true");
		run("alive-input", this.self, "pending_input = true");
		run("gone-later", this.gone, "next_wake_at = timestamptz '2026-01-01T01:00:00Z'");
		analyze();

		UUID claimer = UUID.randomUUID();
		for (String plans : PLANS) {
			Map<String, Long> read = inOneTransaction(plans, (runs) -> {
				List<RunOwnership.Claimed> claimed = runs.claim(claimer, "default", new String[] { TYPE },
						new String[] { "default" }, this.now, 30_000, 100, BuildRoute.UNVERSIONED);
				assertThat(claimed).extracting(RunOwnership.Claimed::runId)
					.containsExactlyInAnyOrder(input, inbox, due, activities, ownerless);
			});
			assertThat(read.get("runs")).as("workflow_run rows read, " + plans).isLessThan(100);
			assertThat(read.get("inbox")).as("index scans of the inbox, " + plans).isLessThan(10);
		}
	}

	/** A run with the given owner and state (SQL assignments), its id. */
	private UUID run(String workflowId, UUID owner, String state) {
		UUID runId = UUID.randomUUID();
		this.jdbc.update("INSERT INTO " + this.schema + ".workflow_run (run_id, namespace, workflow_id, workflow_type,"
				+ " task_queue, status, owner_node, epoch, history_seq, created_at) VALUES (?, 'default', ?, ?,"
				+ " 'default', 'RUNNING', ?, 1, 1, now())", runId, workflowId, TYPE, owner);
		if (state != null) {
			this.jdbc.update("UPDATE " + this.schema + ".workflow_run SET " + state + " WHERE run_id = ?", runId);
		}
		return runId;
	}

	private void analyze() {
		this.jdbc.execute("ANALYZE " + this.schema + ".workflow_run");
		this.jdbc.execute("ANALYZE " + this.schema + ".inbox");
	}

	/**
	 * Runs the polls on one connection in one transaction (rolled back), with the plans
	 * of the given plan cache mode, and returns what they read, as PostgreSQL counted it
	 * for that transaction. The statements are prepared on the server at once, as the
	 * driver does after a few executions, so that the generic plan (the one a prepared
	 * statement may settle on) is the one run.
	 */
	private Map<String, Long> inOneTransaction(String plans, Consumer<RunOwnership> polls) {
		return this.jdbc.execute((Connection con) -> {
			con.setAutoCommit(false);
			PGConnection pg = con.unwrap(PGConnection.class);
			int threshold = pg.getPrepareThreshold();
			try {
				pg.setPrepareThreshold(1);
				JdbcTemplate one = new JdbcTemplate(new SingleConnectionDataSource(con, true));
				one.execute("SET LOCAL plan_cache_mode = " + plans);
				Map<String, Object> before = counts(one);
				polls.accept(new RunOwnership(one, this.schema));
				Map<String, Object> after = counts(one);
				return Map.of("runs", delta(before, after, "runs"), "inbox", delta(before, after, "inbox"));
			}
			finally {
				con.rollback();
				con.setAutoCommit(true);
				pg.setPrepareThreshold(threshold);
			}
		});
	}

	private Map<String, Object> counts(JdbcTemplate one) {
		return one.queryForMap("SELECT (SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)"
				+ " FROM pg_stat_xact_user_tables WHERE schemaname = ? AND relname = 'workflow_run') AS runs,"
				+ " (SELECT coalesce(idx_scan, 0) FROM pg_stat_xact_user_tables WHERE schemaname = ?"
				+ " AND relname = 'inbox') AS inbox", this.schema, this.schema);
	}

	private static long delta(Map<String, Object> before, Map<String, Object> after, String key) {
		return ((Number) after.get(key)).longValue() - ((Number) before.get(key)).longValue();
	}

}
