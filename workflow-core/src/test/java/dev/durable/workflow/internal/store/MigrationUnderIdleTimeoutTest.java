package dev.durable.workflow.internal.store;

import java.lang.reflect.InvocationHandler;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

import dev.durable.workflow.support.JdbcProxies;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine gives the pooled connections it uses an
 * {@code idle_in_transaction_session_timeout}; the schema migration, whose changesets run
 * in transactions, takes such a connection and must not be ended by it when the JVM
 * pauses between two of its statements (a busy machine). It restores the session's
 * settings before the connection goes back to the pool.
 */
class MigrationUnderIdleTimeoutTest {

	@Test
	void aPauseInsideAChangesetDoesNotEndTheMigrationsSession() throws Exception {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(TestDatabase.jdbcUrl());
		config.setUsername("postgres");
		config.setMaximumPoolSize(1);
		// what the engine sets on its connections, much shorter than the pause below
		config.setConnectionInitSql("SET idle_in_transaction_session_timeout = '100ms'");
		try (HikariDataSource pool = new HikariDataSource(config)) {
			AtomicInteger pauses = new AtomicInteger();
			String schema = TestDatabase.newSchema();

			new SchemaMigrator(pausingInTransactions(pool, pauses), schema).migrate();

			assertThat(pauses).as("pauses made inside a changeset's transaction").hasPositiveValue();
			JdbcTemplate jdbc = new JdbcTemplate(pool);
			assertThat(jdbc.queryForObject("SELECT count(*) FROM " + schema + ".durable_changelog", Integer.class))
				.as("changesets applied")
				.isGreaterThan(10);
			assertThat(jdbc.queryForObject("SHOW idle_in_transaction_session_timeout", String.class))
				.as("the session's setting, restored for the pool")
				.isEqualTo("100ms");
		}
	}

	@Test
	void theProxyPausesBeforeTheSecondStatementOfATransaction() {
		// the test above proves something only if the proxy pauses inside a transaction
		SingleConnectionDataSource single = new SingleConnectionDataSource(TestDatabase.jdbcUrl(), "postgres", "",
				true);
		try {
			AtomicInteger pauses = new AtomicInteger();
			JdbcTemplate jdbc = new JdbcTemplate(pausingInTransactions(single, pauses));
			jdbc.execute((Connection c) -> {
				c.setAutoCommit(false);
				c.createStatement().execute("SELECT 1");
				c.createStatement().execute("SELECT 2");
				c.rollback();
				c.setAutoCommit(true);
				return null;
			});
			assertThat(pauses).hasValue(1);
		}
		finally {
			single.destroy();
		}
	}

	/**
	 * Pauses 300 ms before the second statement of every transaction: the session is idle
	 * in a transaction meanwhile.
	 */
	private static DataSource pausingInTransactions(DataSource target, AtomicInteger pauses) {
		return JdbcProxies.dataSource(target, (connection) -> pausing(connection, pauses));
	}

	private static InvocationHandler pausing(Connection target, AtomicInteger pauses) {
		AtomicInteger statementsInTransaction = new AtomicInteger();
		return (proxy, method, args) -> {
			String name = method.getName();
			if (name.equals("setAutoCommit") || name.equals("commit") || name.equals("rollback")) {
				statementsInTransaction.set(0);
			}
			else if ((name.equals("createStatement") || name.startsWith("prepare")) && !target.getAutoCommit()
					&& statementsInTransaction.incrementAndGet() == 2) {
				pauses.incrementAndGet();
				Thread.sleep(300); // a busy JVM between two statements of one transaction
			}
			return JdbcProxies.invoke(target, method, args);
		};
	}

}
