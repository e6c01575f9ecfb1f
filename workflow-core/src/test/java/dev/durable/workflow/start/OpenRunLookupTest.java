package dev.durable.workflow.start;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.Workflows;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.Engines;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A statement that finds one run by its id uses the run's primary key, however many runs
 * are open and whatever the statistics say. The trap: the partial indexes over open runs
 * ({@code WHERE status = 'RUNNING'}) look almost free to the planner when the statistics
 * were taken while few runs were open, and a statement that tests
 * {@code status = 'RUNNING'} by id then scans one of them whole and filters it by id. A
 * benchmark hit it with 10,000 runs waiting for a signal: every signal sent and every
 * task commit read all 10,000.
 *
 * <p>
 * The test sets the trap (statistics taken with 20,000 closed runs and no open one,
 * autovacuum off, then 10,000 open runs) and counts what the engine's statements read
 * from the open-id index while a run is started, signalled and closed.
 */
class OpenRunLookupTest {

	private static final int OPEN_RUNS = 10_000;

	/** The name of the connections the engine keeps for as long as it runs. */
	private static final String KEPT = "open-run-lookup-kept";

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Workflow(value = "open-run-lookup", receives = { "go" })
	public static class Waiter {

		@WorkflowRun
		public String run(String prefix) {
			return prefix + " " + Workflows.receive("go", String.class);
		}

	}

	@Test
	void signallingAndClosingARunDoNotScanTheOpenRuns() {
		// no polls: the run is woken in this JVM, and the polls' own scans of open runs
		// stay out of the count.
		// The connections the engine keeps (LISTEN, the heartbeat's) come from a direct
		// data source of
		// their own name, which the wait for the pool's backends to end leaves out
		PGSimpleDataSource direct = new PGSimpleDataSource();
		direct.setURL(TestDatabase.jdbcUrl() + "&ApplicationName=" + KEPT);
		WorkflowEngine engine = this.engines.start(this.engines.builder()
			.register(Waiter.class)
			.pollInterval(Duration.ofHours(1))
			.directDataSource(direct));
		JdbcTemplate jdbc = this.engines.jdbc();
		String runs = this.engines.schema + ".workflow_run";
		jdbc.execute("ALTER TABLE " + runs + " SET (autovacuum_enabled = false)");
		// statistics of a table that holds many runs, all closed: the open-run indexes
		// look empty
		insertRuns(jdbc, "COMPLETED", 2 * OPEN_RUNS);
		jdbc.execute("VACUUM ANALYZE " + runs);
		insertRuns(jdbc, "RUNNING", OPEN_RUNS);

		long before = openIdEntriesRead(jdbc);

		WorkflowHandle<String> handle = engine.client().start(Waiter::run, "hello", StartOptions.withId("signalled"));
		handle.signal("go", "world");

		assertThat(handle.result()).isEqualTo("hello world");
		assertThat(openIdEntriesRead(jdbc) - before)
			.as("entries of the open-id index read to signal the run and commit its closing task")
			.isLessThan(OPEN_RUNS / 10);
	}

	/** Inserts runs of this workflow type with the status (closed now unless running). */
	private void insertRuns(JdbcTemplate jdbc, String status, int count) {
		jdbc.update("INSERT INTO " + this.engines.schema + ".workflow_run (run_id, namespace, workflow_id,"
				+ " workflow_type, task_queue, status, created_at, closed_at) SELECT gen_random_uuid(), 'default',"
				+ " ? || '-' || i, 'open-run-lookup', 'default', ?, now(), CASE WHEN ? <> 'RUNNING' THEN now() END"
				+ " FROM generate_series(1, ?) AS i", status, status, status, count);
	}

	/**
	 * Index entries read from the open-id index so far. A backend reports its counters
	 * when it ends (otherwise at most once a second, or ten seconds later), so the pool's
	 * idle connections are replaced first.
	 */
	private long openIdEntriesRead(JdbcTemplate jdbc) {
		HikariDataSource pool = (HikariDataSource) TestDatabase.dataSource();
		Timestamp evicted = jdbc.queryForObject("SELECT clock_timestamp()", Timestamp.class);
		pool.getHikariPoolMXBean().softEvictConnections();
		String others = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
				+ " AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND backend_start < ?"
				+ " AND application_name <> '" + KEPT + "'";
		await().until(() -> jdbc.queryForObject(others, Integer.class, evicted) == 0);
		return jdbc.execute((Connection con) -> {
			try (Statement statement = con.createStatement()) {
				statement.execute("SELECT pg_stat_clear_snapshot()");
				try (ResultSet rs = statement
					.executeQuery("SELECT idx_tup_read FROM pg_stat_user_indexes" + " WHERE schemaname = '"
							+ this.engines.schema + "' AND indexrelname = 'workflow_run_open_id'")) {
					rs.next();
					return rs.getLong(1);
				}
			}
		});
	}

}
