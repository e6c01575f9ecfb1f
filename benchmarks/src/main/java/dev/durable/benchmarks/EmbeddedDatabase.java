package dev.durable.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * An embedded PostgreSQL (io.zonky.test, binaries from Maven) on a temporary data directory,
 * deleted on close, and HikariCP pools to it (one per engine node).
 */
final class EmbeddedDatabase implements AutoCloseable {

	private final EmbeddedPostgres postgres;

	private EmbeddedDatabase(EmbeddedPostgres postgres) {
		this.postgres = postgres;
	}

	/**
	 * Starts the server. The embedded library turns both durability settings off by default;
	 * PostgreSQL's own defaults are both on.
	 * @param synchronousCommit {@code synchronous_commit}: {@code on} (a commit waits for its WAL
	 * flush) or {@code off}
	 * @param fsync {@code fsync}: {@code on} (WAL flushes reach the disk) or {@code off}
	 */
	static EmbeddedDatabase start(String synchronousCommit, String fsync) {
		try {
			return new EmbeddedDatabase(EmbeddedPostgres.builder()
				.setServerConfig("synchronous_commit", synchronousCommit)
				.setServerConfig("fsync", fsync)
				.setPGStartupWait(Duration.ofSeconds(60))
				.start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded PostgreSQL", ex);
		}
	}

	/** A new pool of the given size, as an application node would have. */
	HikariDataSource pool(String name, int size) {
		HikariConfig config = new HikariConfig();
		config.setPoolName(name);
		config.setJdbcUrl(this.postgres.getJdbcUrl("postgres", "postgres") + "&reWriteBatchedInserts=true");
		config.setUsername("postgres");
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(size);
		return new HikariDataSource(config);
	}

	/** Version and the settings that matter for commit latency, for the report. */
	String describe() {
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
