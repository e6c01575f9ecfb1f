package dev.durable.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An embedded PostgreSQL (io.zonky.test, binaries from Maven) on a temporary data
 * directory, deleted on close, and HikariCP pools to it (one per engine node).
 */
public final class EmbeddedDatabase implements AutoCloseable {

	private final EmbeddedPostgres postgres;

	private EmbeddedDatabase(EmbeddedPostgres postgres) {
		this.postgres = postgres;
	}

	/**
	 * Starts the server. The embedded library turns both durability settings off by
	 * default; PostgreSQL's own defaults are both on.
	 * @param synchronousCommit {@code synchronous_commit}: {@code on} (a commit waits for
	 * its WAL flush) or {@code off}
	 * @param fsync {@code fsync}: {@code on} (WAL flushes reach the disk) or {@code off}
	 */
	public static EmbeddedDatabase start(String synchronousCommit, String fsync) {
		return start(synchronousCommit, fsync, false);
	}

	/**
	 * {@link #start(String, String)}, optionally with {@code pg_stat_statements} loaded
	 * (it ships with the embedded binaries), for a breakdown of what the engines run.
	 */
	public static EmbeddedDatabase start(String synchronousCommit, String fsync, boolean statements) {
		try {
			EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
				.setServerConfig("synchronous_commit", synchronousCommit)
				.setServerConfig("fsync", fsync)
				.setPGStartupWait(Duration.ofSeconds(60));
			if (statements) {
				builder.setServerConfig("shared_preload_libraries", "pg_stat_statements");
				// the breakdown shows planning time apart from execution time
				builder.setServerConfig("pg_stat_statements.track_planning", "on");
			}
			return new EmbeddedDatabase(builder.start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded PostgreSQL", ex);
		}
	}

	/** A new pool of the given size, as an application node would have. */
	public HikariDataSource pool(String name, int size) {
		return pool("postgres", name, size);
	}

	/** A new pool of the given size to one database of the server. */
	public HikariDataSource pool(String database, String name, int size) {
		return pool(database, name, size, size);
	}

	/**
	 * A new pool that opens {@code idle} connections and more, up to {@code size}, on
	 * demand.
	 */
	public HikariDataSource pool(String database, String name, int size, int idle) {
		HikariConfig config = new HikariConfig();
		config.setPoolName(name);
		config.setJdbcUrl(jdbcUrl(database) + "&reWriteBatchedInserts=true");
		config.setUsername("postgres");
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(idle);
		return new HikariDataSource(config);
	}

	/**
	 * The JDBC URL of one database of the server (user {@code postgres}, no password).
	 */
	public String jdbcUrl(String database) {
		return this.postgres.getJdbcUrl("postgres", database);
	}

	/**
	 * Creates an empty database on the server, so that each engine's counters are its
	 * own.
	 */
	public void createDatabase(String database) {
		try (HikariDataSource ds = pool("create-database", 1)) {
			new JdbcTemplate(ds).execute("CREATE DATABASE " + database);
		}
	}

	/** Version and the settings that matter for commit latency, for the report. */
	public String describe() {
		try (HikariDataSource ds = pool("describe", 1)) {
			JdbcTemplate jdbc = new JdbcTemplate(ds);
			return "PostgreSQL " + jdbc.queryForObject("SHOW server_version", String.class) + " (synchronous_commit="
					+ jdbc.queryForObject("SHOW synchronous_commit", String.class) + ", fsync="
					+ jdbc.queryForObject("SHOW fsync", String.class) + ", wal_sync_method="
					+ jdbc.queryForObject("SHOW wal_sync_method", String.class) + ")";
		}
	}

	@Override
	public void close() {
		try {
			this.postgres.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
