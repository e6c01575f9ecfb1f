package dev.durable.workflow.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.jdbc.core.JdbcTemplate;

/** One real embedded PostgreSQL per test JVM; each test gets its own schema. */
public final class TestDatabase {

	private static final AtomicInteger SCHEMAS = new AtomicInteger();

	private static EmbeddedPostgres postgres;

	private static HikariDataSource dataSource;

	private TestDatabase() {
	}

	public static synchronized EmbeddedPostgres postgres() {
		if (postgres == null) {
			try {
				postgres = EmbeddedPostgres.builder().start();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return postgres;
	}

	public static String jdbcUrl() {
		return postgres().getJdbcUrl("postgres", "postgres");
	}

	/** A pooled data source shared by the tests of this JVM. */
	public static synchronized DataSource dataSource() {
		if (dataSource == null) {
			dataSource = pool(jdbcUrl(), 24);
		}
		return dataSource;
	}

	/**
	 * A connection of the shared pool with a transaction open, for a test that holds
	 * locks while the engine works. The engine gives the pooled connections it uses an
	 * {@code idle_in_transaction_session_timeout} (its lease), which would end a
	 * transaction the test keeps idle longer than that on a slow machine; this
	 * transaction is exempt.
	 */
	public static Connection openTransaction() throws SQLException {
		Connection connection = dataSource().getConnection();
		connection.setAutoCommit(false);
		try (Statement statement = connection.createStatement()) {
			statement.execute("SET LOCAL idle_in_transaction_session_timeout = 0");
		}
		return connection;
	}

	public static HikariDataSource pool(String url, int size) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url + "&reWriteBatchedInserts=true");
		config.setUsername("postgres");
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(2);
		return new HikariDataSource(config);
	}

	/** A fresh, not yet created schema name. */
	public static String newSchema() {
		return "t" + SCHEMAS.incrementAndGet() + "_" + Long.toHexString(System.nanoTime() & 0xFFFFFF);
	}

	public static JdbcTemplate jdbc() {
		return new JdbcTemplate(dataSource());
	}

}
