package dev.durable.workflow.test;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * One embedded PostgreSQL server per JVM, for tests: started lazily on a random free port
 * the first time it is asked for, shared by every test in the JVM, and closed by a
 * shutdown hook.
 *
 * <pre>{@code
 * DataSource ds = EmbeddedPostgresSupport.dataSource();
 * String url = EmbeddedPostgresSupport.jdbcUrl(); // user "postgres", no password
 * }</pre>
 */
public final class EmbeddedPostgresSupport {

	/** The superuser and database of the embedded server. */
	public static final String USER = "postgres";

	public static final String DATABASE = "postgres";

	private static volatile @Nullable EmbeddedPostgres postgres;

	private static @Nullable DataSource pooled;

	private static final AtomicInteger SCHEMAS = new AtomicInteger();

	private static final AtomicInteger POOLS = new AtomicInteger();

	/** The name of the thread of Spring Boot's shutdown hook. */
	private static final String SPRING_HOOK_THREAD = "SpringApplicationShutdownHook";

	private static final Duration SPRING_HOOK_APPEARS = Duration.ofMillis(200);

	/** How long the server waits for Spring's hook to close the contexts. */
	private static final Duration SPRING_HOOK_PATIENCE = Duration.ofMinutes(1);

	private EmbeddedPostgresSupport() {
	}

	/** The running server, started on first use. */
	public static EmbeddedPostgres postgres() {
		EmbeddedPostgres pg = postgres;
		if (pg == null) {
			synchronized (EmbeddedPostgresSupport.class) {
				pg = postgres;
				if (pg == null) {
					pg = start();
					postgres = pg;
				}
			}
		}
		return pg;
	}

	/** A data source for the {@value #DATABASE} database as {@value #USER}. */
	public static DataSource dataSource() {
		return postgres().getPostgresDatabase();
	}

	/**
	 * A connection pool on the {@value #DATABASE} database, shared by the JVM: what
	 * {@link TestWorkflowEnvironment} uses (the plain {@link #dataSource()} opens a
	 * connection per use).
	 */
	public static synchronized DataSource pooledDataSource() {
		if (pooled == null) {
			pooled = pool("durable-test", 20, 2);
		}
		return pooled;
	}

	/**
	 * A new connection pool on the {@value #DATABASE} database, for one application
	 * context or test: close it when done (a Spring context closes a {@code DataSource}
	 * bean with itself). Give an engine this rather than {@link #dataSource()}, which
	 * opens a connection, and so a server process, for every use.
	 */
	public static HikariDataSource newPooledDataSource() {
		return pool("durable-test-" + POOLS.incrementAndGet(), 10, 1);
	}

	private static HikariDataSource pool(String name, int size, int minimumIdle) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(jdbcUrl() + "&reWriteBatchedInserts=true");
		config.setUsername(USER);
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(minimumIdle);
		config.setPoolName(name);
		return new HikariDataSource(config);
	}

	/**
	 * A fresh schema name, unique in this JVM and unlikely to clash with other JVMs (not
	 * created).
	 */
	public static String newSchemaName() {
		return "durable_test_" + SCHEMAS.incrementAndGet() + "_" + Long.toHexString(System.nanoTime() & 0xFFFFFFL);
	}

	/**
	 * The JDBC URL of the {@value #DATABASE} database; user {@value #USER}, no password.
	 */
	public static String jdbcUrl() {
		return postgres().getJdbcUrl(USER, DATABASE);
	}

	/** The port the server listens on. */
	public static int port() {
		return postgres().getPort();
	}

	private static EmbeddedPostgres start() {
		EmbeddedPostgres pg;
		try {
			// port 0 (the default): a free port is chosen at start
			pg = EmbeddedPostgres.builder().setRegisterShutdownHook(false).start();
		}
		catch (IOException e) {
			throw new UncheckedIOException("could not start embedded PostgreSQL", e);
		}
		EmbeddedPostgres started = pg;
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			awaitSpringShutdownHook();
			try {
				started.close();
			}
			catch (IOException | RuntimeException e) {
				// the JVM is exiting: nothing left to tell
			}
		}, "embedded-postgres-shutdown"));
		return pg;
	}

	/**
	 * The JVM runs its shutdown hooks at once. A Spring application's hook closes its
	 * contexts, and their engines release their runs through this server as they stop:
	 * stopped first, the server would leave each engine waiting for a connection until
	 * its pool gives up (30 s by default) and the JVM's exit with it. So the server stops
	 * once Spring's hook ended (found by the name Spring Boot gives its thread), or at
	 * once when there is none.
	 */
	private static void awaitSpringShutdownHook() {
		long started = System.nanoTime();
		Thread spring = null;
		// the JVM starts the hooks' threads one after another: look for a moment
		while (spring == null && System.nanoTime() - started < SPRING_HOOK_APPEARS.toNanos()) {
			spring = Thread.getAllStackTraces()
				.keySet()
				.stream()
				.filter((thread) -> SPRING_HOOK_THREAD.equals(thread.getName()))
				.findFirst()
				.orElse(null);
			if (spring == null) {
				try {
					Thread.sleep(5);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
		if (spring != null) {
			try {
				spring.join(SPRING_HOOK_PATIENCE.toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
