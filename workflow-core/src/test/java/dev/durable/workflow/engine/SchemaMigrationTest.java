package dev.durable.workflow.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import dev.durable.workflow.internal.store.SchemaMigrator;
import dev.durable.workflow.support.StatementRecorder;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine's own changelog, run by several nodes at once or after a node died
 * mid-migration.
 */
class SchemaMigrationTest {

	private int tables(String schema) {
		return TestDatabase.jdbc()
			.queryForObject("SELECT count(*) FROM information_schema.tables WHERE table_schema = ?", Integer.class,
					schema);
	}

	@Test
	void createsTheSchemaWithItsOwnChangelogTables() {
		String schema = TestDatabase.newSchema();
		new SchemaMigrator(TestDatabase.dataSource(), schema).migrate();
		List<String> names = TestDatabase.jdbc()
			.queryForList("SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY 1",
					String.class, schema);
		assertThat(names)
			.contains("workflow_run", "run_payload", "history", "inbox", "dedup", "timer", "activity", "visibility",
					"schedule", "node", "durable_changelog", "durable_changelog_lock")
			.doesNotContain("databasechangelog");
		// idempotent
		new SchemaMigrator(TestDatabase.dataSource(), schema).migrate();
		assertThat(tables(schema)).isEqualTo(names.size());
	}

	@Test
	void theMigrationLeavesTheConnectionsSearchPathAsItFoundIt() throws Exception {
		String schema = TestDatabase.newSchema();
		// one connection: the migration borrows the very connection the application gets
		// next
		com.zaxxer.hikari.HikariDataSource single = TestDatabase.pool(TestDatabase.jdbcUrl(), 1);
		try (single) {
			String before;
			try (java.sql.Connection connection = single.getConnection();
					java.sql.ResultSet rs = connection.createStatement().executeQuery("SHOW search_path")) {
				rs.next();
				before = rs.getString(1);
			}
			new SchemaMigrator(single, schema).migrate();
			try (java.sql.Connection connection = single.getConnection();
					java.sql.ResultSet rs = connection.createStatement().executeQuery("SHOW search_path")) {
				rs.next();
				assertThat(rs.getString(1)).isEqualTo(before);
			}
		}
	}

	@Test
	void nodesStartingAtOnceMigrateOnce() throws Exception {
		String schema = TestDatabase.newSchema();
		ExecutorService pool = Executors.newFixedThreadPool(4);
		try {
			List<Callable<Void>> starts = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				starts.add(() -> {
					new SchemaMigrator(TestDatabase.dataSource(), schema).migrate();
					return null;
				});
			}
			for (Future<Void> result : pool.invokeAll(starts)) {
				result.get();
			}
		}
		finally {
			pool.shutdown();
		}
		Integer applied = TestDatabase.jdbc()
			.queryForObject("SELECT count(*) FROM " + schema + ".durable_changelog", Integer.class);
		Integer distinct = TestDatabase.jdbc()
			.queryForObject("SELECT count(DISTINCT id) FROM " + schema + ".durable_changelog", Integer.class);
		assertThat(applied).isEqualTo(distinct).isPositive();
	}

	@Test
	void aLockLeftByAKilledNodeDoesNotWedgeTheNextStart() {
		String schema = TestDatabase.newSchema();
		new SchemaMigrator(TestDatabase.dataSource(), schema).migrate();
		// a node killed mid-migration, before its last changeset, leaves Liquibase's lock
		// row taken
		TestDatabase.jdbc()
			.update("DELETE FROM " + schema + ".durable_changelog WHERE id = '018-namespace-claim-indexes'");
		TestDatabase.jdbc()
			.update("UPDATE " + schema + ".durable_changelog_lock SET locked = true, lockgranted = now(),"
					+ " lockedby = 'killed node'");
		new SchemaMigrator(TestDatabase.dataSource(), schema).migrate();
		Boolean locked = TestDatabase.jdbc()
			.queryForObject("SELECT locked FROM " + schema + ".durable_changelog_lock", Boolean.class);
		assertThat(locked).isFalse();
		assertThat(
				TestDatabase.jdbc()
					.queryForObject("SELECT count(*) FROM " + schema
							+ ".durable_changelog WHERE id = '018-namespace-claim-indexes'", Integer.class))
			.as("the missing changeset ran")
			.isOne();
	}

	@Test
	void aStartOnAnUpToDateSchemaTakesNoLockAndRunsNothing() {
		String schema = TestDatabase.newSchema();
		new SchemaMigrator(TestDatabase.dataSource(), schema).migrate();
		Integer applied = TestDatabase.jdbc()
			.queryForObject("SELECT count(*) FROM " + schema + ".durable_changelog", Integer.class);
		StatementRecorder recorder = new StatementRecorder(TestDatabase.dataSource());
		new SchemaMigrator(recorder.dataSource(), schema).migrate();
		assertThat(recorder.all()).extracting(StatementRecorder.Statement::sql)
			.isNotEmpty()
			.noneMatch((sql) -> sql.contains("pg_advisory_lock") || sql.contains("durable_changelog_lock"));
		assertThat(TestDatabase.jdbc()
			.queryForObject("SELECT count(*) FROM " + schema + ".durable_changelog", Integer.class)).isEqualTo(applied);
	}

	@Test
	void rejectsAnUnsafeSchemaName() {
		assertThatThrownBy(() -> new SchemaMigrator(TestDatabase.dataSource(), "x; drop table y"))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid schema name");
	}

}
