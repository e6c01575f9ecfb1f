package dev.durable.workflow.support;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.Scope;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.internal.store.SchemaMigrator;

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

	/**
	 * A new schema holding the engine's tables as its migration leaves them, its
	 * changelog rows included, so that an engine's start finds it up to date. It is made
	 * from the SQL of the migration, generated once per JVM: a full Liquibase migration
	 * per test costs more than most tests. Tests of the migration itself use
	 * {@link #newSchema()}.
	 */
	public static String migratedSchema() {
		String schema = newSchema();
		String script = migrationScript().replace(TEMPLATE, schema);
		try (Connection connection = dataSource().getConnection()) {
			String searchPath = searchPath(connection);
			try (Statement statement = connection.createStatement()) {
				statement.execute(script);
				// the script points the session at the schema: the pooled connection
				// goes back as it was
				statement.execute("SET search_path TO " + searchPath);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not create schema " + schema + " from the migration script", ex);
		}
		return schema;
	}

	/** The schema name the generated migration script is written for. */
	private static final String TEMPLATE = "durable_migration_template";

	private static String migrationScript;

	private static synchronized String migrationScript() {
		if (migrationScript == null) {
			migrationScript = generateMigrationScript();
		}
		return migrationScript;
	}

	/**
	 * Liquibase's SQL for migrating an empty schema named {@link #TEMPLATE}, with the
	 * schema's creation in front; the schema itself is dropped again.
	 */
	private static String generateMigrationScript() {
		try (Connection connection = dataSource().getConnection()) {
			String searchPath = searchPath(connection);
			try (Statement statement = connection.createStatement()) {
				statement.execute("DROP SCHEMA IF EXISTS " + TEMPLATE + " CASCADE");
				statement.execute("CREATE SCHEMA " + TEMPLATE);
			}
			Liquibase liquibase = SchemaMigrator.liquibase(connection, TEMPLATE);
			StringWriter sql = new StringWriter();
			Scope.child(SchemaMigrator.quietScope(),
					() -> liquibase.update(new Contexts(), new LabelExpression(), sql));
			connection.setAutoCommit(true);
			try (Statement statement = connection.createStatement()) {
				statement.execute("DROP SCHEMA " + TEMPLATE + " CASCADE");
				statement.execute("SET search_path TO " + searchPath);
			}
			return "CREATE SCHEMA " + TEMPLATE + ";\n" + sql;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not generate the migration script", ex);
		}
	}

	private static String searchPath(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet rs = statement.executeQuery("SHOW search_path")) {
			rs.next();
			return rs.getString(1);
		}
	}

	public static JdbcTemplate jdbc() {
		return new JdbcTemplate(dataSource());
	}

}
