package dev.durable.workflow.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.Scope;
import liquibase.UpdateSummaryEnum;
import liquibase.UpdateSummaryOutputEnum;
import liquibase.changelog.ChangeLogParameters;
import liquibase.changelog.ChangeSet;
import liquibase.changelog.DatabaseChangeLog;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.exception.LiquibaseException;
import liquibase.lockservice.LockServiceFactory;
import liquibase.parser.ChangeLogParserFactory;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.util.LiquibaseUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates and upgrades the engine's schema with its own Liquibase changelog and changelog
 * tables. A session-level PostgreSQL advisory lock serializes nodes that start at once;
 * because the database drops it with the session, a node killed mid-migration never
 * leaves it held, and any Liquibase lock row it left behind is released by the next node
 * that holds the advisory lock.
 */
public final class SchemaMigrator {

	static final String CHANGELOG = "dev/durable/workflow/db/changelog.xml";

	/** The major version at the start of a Liquibase version string. */
	private static final Pattern MAJOR = Pattern.compile("(\\d+)\\.");

	private static final Logger log = LoggerFactory.getLogger(SchemaMigrator.class);

	/**
	 * Liquibase logs through java.util.logging at INFO per statement; keep it to
	 * warnings.
	 */
	private static final java.util.logging.Logger LIQUIBASE_LOG = java.util.logging.Logger.getLogger("liquibase");

	static {
		LIQUIBASE_LOG.setLevel(java.util.logging.Level.WARNING);
	}

	private final DataSource dataSource;

	private final String schema;

	public SchemaMigrator(DataSource dataSource, String schema) {
		this.dataSource = dataSource;
		this.schema = Sql.checkIdentifier(schema);
	}

	public void migrate() {
		String liquibaseVersion = LiquibaseUtil.getBuildVersion();
		if (untested(liquibaseVersion)) {
			log.warn(
					"Liquibase {} is on the classpath: Durable is built and tested with Liquibase 4.x (its BOM "
							+ "manages 4.33.0; with spring-boot-starter-parent set the property liquibase.version)",
					liquibaseVersion);
		}
		if (isCurrent()) {
			// every changeset ran (a restart, another node of the cluster): no lock, no
			// Liquibase
			log.info("Schema '{}' is up to date; Liquibase {} not run", this.schema, liquibaseVersion);
			return;
		}
		log.info("Migrating schema '{}' with Liquibase {}", this.schema, liquibaseVersion);
		try (Connection connection = this.dataSource.getConnection()) {
			connection.setAutoCommit(true);
			String searchPath = setting(connection, "search_path");
			String idleTimeout = setting(connection, "idle_in_transaction_session_timeout");
			// Liquibase runs each changeset in a transaction: a pause between two of its
			// statements (a busy JVM) must not end the session under the idle timeout the
			// engine gives the connections it uses
			configure(connection, "idle_in_transaction_session_timeout", "0");
			lock(connection, true);
			Exception failure = null;
			try {
				try (Statement statement = connection.createStatement()) {
					statement.execute("CREATE SCHEMA IF NOT EXISTS " + this.schema);
				}
				Scope.child(quietScope(), () -> update(connection));
			}
			catch (Exception ex) {
				failure = ex;
				throw ex;
			}
			finally {
				try {
					connection.setAutoCommit(true); // Liquibase turns it off
					lock(connection, false);
					// Liquibase points the session's search_path at the schema: the
					// connection goes back to the application's pool, whose own
					// unqualified queries must find what they found before
					configure(connection, "search_path", searchPath);
					configure(connection, "idle_in_transaction_session_timeout", idleTimeout);
				}
				catch (SQLException cleanup) {
					// a connection the migration broke cannot be cleaned: the migration's
					// own failure is the one to tell
					if (failure == null) {
						throw cleanup;
					}
					failure.addSuppressed(cleanup);
				}
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Cannot migrate schema '" + this.schema + "': " + ex.getMessage(), ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Cannot migrate schema '" + this.schema + "': " + ex.getMessage(), ex);
		}
	}

	/**
	 * Whether a Liquibase version is one Durable is not tested with: 5.x and later
	 * (Spring Boot 4 manages 5.x; Durable's BOM, 4.x). An unknown form (a development
	 * build) is not judged.
	 */
	static boolean untested(String version) {
		Matcher major = MAJOR.matcher(version);
		return major.lookingAt() && Integer.parseInt(major.group(1)) >= 5;
	}

	/**
	 * For a node that does not migrate: fails unless every changeset of this version has
	 * run, so that such a node never starts on a schema it would fail on later.
	 */
	public void requireCurrent() {
		if (!isCurrent()) {
			throw new IllegalStateException("Schema '" + this.schema + "' lacks tables or changesets of this "
					+ "version of Durable, and this node does not migrate it (migrateSchema(false), "
					+ "durable.workflow.migrate-schema=false): migrate it first, for example by starting one node "
					+ "that does");
		}
		log.info("Schema '{}' is up to date; this node does not migrate it", this.schema);
	}

	/**
	 * Whether the schema's changelog table records every changeset of the changelog, read
	 * without the lock: a migration records each changeset in the transaction that runs
	 * it, so a complete record is a finished migration. Rows of changesets this version
	 * does not know (a newer node migrated) do not matter, as they do not to Liquibase.
	 */
	private boolean isCurrent() {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement exists = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
			exists.setString(1, this.schema + ".durable_changelog");
			try (ResultSet rs = exists.executeQuery()) {
				if (!rs.next() || !rs.getBoolean(1)) {
					return false;
				}
			}
			// parsed only now: a new schema migrates without it
			Set<String> expected = Changesets.IDS;
			if (expected.isEmpty()) {
				return false; // the changelog could not be read here: Liquibase decides
			}
			Set<String> ran = new HashSet<>();
			try (Statement statement = connection.createStatement();
					ResultSet rs = statement
						.executeQuery("SELECT author || ':' || id FROM " + this.schema + ".durable_changelog")) {
				while (rs.next()) {
					ran.add(rs.getString(1));
				}
			}
			return ran.containsAll(expected);
		}
		catch (SQLException ex) {
			log.debug("Could not read the changelog of schema {}; migrating: {}", this.schema, ex.getMessage());
			return false;
		}
	}

	/**
	 * The changesets of the changelog as {@code author:id}, parsed once; empty when it
	 * could not be parsed.
	 */
	private static final class Changesets {

		static final Set<String> IDS = parse();

		private static Set<String> parse() {
			try {
				ClassLoaderResourceAccessor accessor = new ClassLoaderResourceAccessor(
						SchemaMigrator.class.getClassLoader());
				return Scope.child(quietScope(), () -> {
					DatabaseChangeLog changelog = ChangeLogParserFactory.getInstance()
						.getParser(CHANGELOG, accessor)
						.parse(CHANGELOG, new ChangeLogParameters(), accessor);
					Set<String> ids = new HashSet<>();
					for (ChangeSet changeSet : changelog.getChangeSets()) {
						ids.add(changeSet.getAuthor() + ":" + changeSet.getId());
					}
					return Set.copyOf(ids);
				});
			}
			catch (Exception ex) {
				log.debug("Could not parse the changelog; every start runs Liquibase: {}", ex.getMessage());
				return Set.of();
			}
		}

	}

	private void update(Connection connection) throws Exception {
		Liquibase liquibase = liquibase(connection, this.schema);
		liquibase.setShowSummary(UpdateSummaryEnum.OFF);
		liquibase.setShowSummaryOutput(UpdateSummaryOutputEnum.LOG);
		// we hold the advisory lock: a Liquibase lock row can only be left over by a
		// killed node
		LockServiceFactory.getInstance().getLockService(liquibase.getDatabase()).forceReleaseLock();
		liquibase.update(new Contexts(), new LabelExpression());
		log.debug("Schema {} is up to date", this.schema);
	}

	/**
	 * The engine's changelog on the given schema over the connection, with the engine's
	 * own changelog tables: what the migration runs (and what a tool that prints the
	 * migration's SQL runs, inside {@link #quietScope()}).
	 */
	public static Liquibase liquibase(Connection connection, String schema) throws LiquibaseException {
		Database database = DatabaseFactory.getInstance()
			.findCorrectDatabaseImplementation(new JdbcConnection(connection));
		database.setDefaultSchemaName(schema);
		database.setLiquibaseSchemaName(schema);
		database.setDatabaseChangeLogTableName("durable_changelog");
		database.setDatabaseChangeLogLockTableName("durable_changelog_lock");
		Liquibase liquibase = new Liquibase(CHANGELOG,
				new ClassLoaderResourceAccessor(SchemaMigrator.class.getClassLoader()), database);
		liquibase.setChangeLogParameter("schema", schema);
		return liquibase;
	}

	/**
	 * The Liquibase scope the engine runs it in: no analytics, no banner, its messages to
	 * the log.
	 */
	public static Map<String, Object> quietScope() {
		return Map.of("liquibase.analytics.enabled", false, "liquibase.showBanner", false, Scope.Attr.ui.name(),
				new liquibase.ui.LoggerUIService());
	}

	private static String setting(Connection connection, String name) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT current_setting(?)")) {
			statement.setString(1, name);
			try (ResultSet rs = statement.executeQuery()) {
				rs.next();
				return rs.getString(1);
			}
		}
	}

	private static void configure(Connection connection, String name, String value) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT set_config(?, ?, false)")) {
			statement.setString(1, name);
			statement.setString(2, value);
			statement.execute();
		}
	}

	private void lock(Connection connection, boolean acquire) throws SQLException {
		String sql = acquire ? "SELECT pg_advisory_lock(hashtext(?))" : "SELECT pg_advisory_unlock(hashtext(?))";
		try (PreparedStatement statement = connection.prepareStatement(sql)) {
			statement.setString(1, "dev.durable.workflow.migrate:" + this.schema);
			statement.execute();
		}
	}

}
