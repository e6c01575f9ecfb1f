package dev.durable.workflow.support;

import java.io.IOException;
import java.io.UncheckedIOException;
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
