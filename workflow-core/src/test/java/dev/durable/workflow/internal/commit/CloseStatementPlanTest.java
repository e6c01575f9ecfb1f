package dev.durable.workflow.internal.commit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.versioning.BuildRouter;
import dev.durable.workflow.internal.store.BuildRepository;
import dev.durable.workflow.support.Engines;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statement that closes a run touches the side tables by index, whatever they hold:
 * with 10,000 signal and update records of other workflows in {@code dedup} (kept until
 * retention removes them), the close's update of this run's unfinished updates must not
 * scan them all. The plan is PostgreSQL's generic plan (the one a prepared statement
 * settles on) for the exact statement the engine prepares.
 */
class CloseStatementPlanTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	@Test
	void theClosingCommitFindsTheRunsUpdatesByIndex() {
		this.engines.start(this.engines.builder()); // migrates the schema
		JdbcTemplate jdbc = this.engines.jdbc();
		jdbc.update("INSERT INTO " + this.engines.schema + ".dedup (namespace, workflow_id, kind, dedup_key, run_id,"
				+ " stage) SELECT 'default', 'wf-' || (i % 2000), CASE WHEN i % 2 = 0 THEN 'UPDATE' ELSE 'SIGNAL' END,"
				+ " 'key-' || i, gen_random_uuid(), CASE WHEN i % 2 = 0 THEN 'COMPLETED' END"
				+ " FROM generate_series(1, 10000) AS i");
		jdbc.execute("ANALYZE " + this.engines.schema + ".dedup");

		String plan = genericPlan(jdbc,
				new TaskCommitStatement(this.engines.schema,
						BuildRouter.unversioned("default", new BuildRepository(jdbc, this.engines.schema)))
					.closingStatement());

		assertThat(plan).contains("Update on dedup").doesNotContain("Seq Scan on dedup");
	}

	/**
	 * A start whose first task closes the run is inserted closed, which the unique index
	 * of open runs does not check: the statement looks for an open run of the id itself,
	 * and must find it through that index, not by reading the runs of every workflow.
	 */
	@Test
	void aStartThatClosesLooksForAnOpenRunOfItsIdByIndex() {
		this.engines.start(this.engines.builder()); // migrates the schema
		JdbcTemplate jdbc = this.engines.jdbc();
		jdbc.update("INSERT INTO " + this.engines.schema + ".workflow_run (run_id, namespace, workflow_id,"
				+ " workflow_type, task_queue, status, created_at) SELECT gen_random_uuid(), 'default', 'wf-' || i,"
				+ " 'type', 'default', CASE WHEN i % 10 = 0 THEN 'RUNNING' ELSE 'COMPLETED' END, now()"
				+ " FROM generate_series(1, 10000) AS i");
		jdbc.execute("ANALYZE " + this.engines.schema + ".workflow_run");

		String plan = genericPlan(jdbc,
				new TaskCommitStatement(this.engines.schema,
						BuildRouter.unversioned("default", new BuildRepository(jdbc, this.engines.schema)))
					.closingStartStatement());

		assertThat(plan).contains("workflow_run_open_id").doesNotContain("Seq Scan on workflow_run");
	}

	/**
	 * PostgreSQL's generic plan of the statement, the one a prepared statement settles
	 * on.
	 */
	private static String genericPlan(JdbcTemplate jdbc, String sql) {
		int parameters = (int) sql.chars().filter((c) -> c == '?').count();
		return jdbc.execute((java.sql.Connection con) -> {
			try (java.sql.Statement statement = con.createStatement()) {
				statement.execute("SET plan_cache_mode = force_generic_plan");
				statement.execute("PREPARE closing AS " + numbered(sql));
				StringBuilder lines = new StringBuilder();
				try (java.sql.ResultSet rs = statement.executeQuery("EXPLAIN EXECUTE closing("
						+ String.join(", ", java.util.Collections.nCopies(parameters, "NULL")) + ")")) {
					while (rs.next()) {
						lines.append(rs.getString(1)).append('\n');
					}
				}
				statement.execute("DEALLOCATE closing");
				statement.execute("RESET plan_cache_mode");
				return lines.toString();
			}
		});
	}

	/**
	 * JDBC's {@code ?} placeholders as PostgreSQL's {@code $1, $2, ...}, which PREPARE
	 * takes.
	 */
	private static String numbered(String sql) {
		Matcher matcher = Pattern.compile("\\?").matcher(sql);
		StringBuilder out = new StringBuilder();
		int n = 0;
		while (matcher.find()) {
			matcher.appendReplacement(out, "\\$" + (++n));
		}
		return matcher.appendTail(out).toString();
	}

}
