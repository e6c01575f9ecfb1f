package dev.durable.workflow.autoconfigure.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Starts the development PostgreSQL server from the zonky binaries on a persistent data
 * directory: created on first start, reused afterwards, so that runs survive a restart of
 * the application.
 */
final class EmbeddedPostgresLauncher {

	private static final Log logger = LogFactory.getLog(EmbeddedPostgresLauncher.class);

	/**
	 * The lock file the zonky library holds in the data directory while its server runs.
	 */
	private static final String LOCK_FILE = "epg-lock";

	private EmbeddedPostgresLauncher() {
	}

	static EmbeddedPostgresServer start(DurableEmbeddedPostgresProperties properties) {
		Path dataDirectory = properties.getDataDirectory().toAbsolutePath().normalize();
		try {
			Files.createDirectories(dataDirectory);
			stopOrphanedServer(dataDirectory);
			checkPortFree(properties.getPort());
			boolean fresh = !Files.exists(dataDirectory.resolve("postgresql.conf"));
			EmbeddedPostgres postgres = EmbeddedPostgres.builder()
				.setDataDirectory(dataDirectory)
				.setCleanDataDirectory(false)
				.setPort(properties.getPort())
				.setPGStartupWait(properties.getStartupTimeout())
				// the context stops the server after the engine and the pool
				// (EmbeddedPostgresServer)
				.setRegisterShutdownHook(false)
				// the library turns fsync off (-F); with a data directory that is kept,
				// an OS crash
				// must not corrupt it. synchronous_commit stays off: commits stay fast.
				.setServerConfig("fsync", "on")
				.start();
			logger.warn("Started an embedded PostgreSQL server for DEVELOPMENT ONLY on port " + postgres.getPort()
					+ " with data in " + dataDirectory + (fresh ? " (new)" : "")
					+ ". Set spring.datasource.url to use a real PostgreSQL database,"
					+ " or durable.workflow.embedded-postgres.enabled=false.");
			return new EmbeddedPostgresServer(postgres, dataDirectory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start the embedded PostgreSQL server with data in "
					+ dataDirectory + " (durable.workflow.embedded-postgres.data-directory)", ex);
		}
	}

	/**
	 * A server whose application was killed keeps running on the data directory: pg_ctl
	 * detaches it. When no live process holds the library's lock on the directory, such a
	 * server is an orphan, and is shut down (cleanly: it keeps every committed change) so
	 * that this start can take over.
	 */
	private static void stopOrphanedServer(Path dataDirectory) throws IOException {
		Path lockFile = dataDirectory.resolve(LOCK_FILE);
		if (!Files.exists(lockFile)) {
			return;
		}
		try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
				FileLock lock = tryLock(channel)) {
			if (lock == null) {
				throw new IllegalStateException("The embedded PostgreSQL data directory " + dataDirectory
						+ " is in use by another running application. Stop it, or set"
						+ " durable.workflow.embedded-postgres.data-directory to another directory.");
			}
			Optional<ProcessHandle> orphan = postmaster(dataDirectory);
			if (orphan.isPresent()) {
				ProcessHandle process = orphan.get();
				logger.warn("Stopping the embedded PostgreSQL server (pid " + process.pid() + ") left running on "
						+ dataDirectory + " by an application that did not shut down");
				process.destroy();
				try {
					process.onExit().get(30, TimeUnit.SECONDS);
				}
				catch (Exception ex) {
					throw new IllegalStateException("The embedded PostgreSQL server (pid " + process.pid()
							+ ") left running on " + dataDirectory + " did not stop; stop it and start again", ex);
				}
			}
		}
	}

	private static @Nullable FileLock tryLock(FileChannel channel) throws IOException {
		try {
			return channel.tryLock();
		}
		catch (OverlappingFileLockException ex) {
			// held by this JVM: another application context runs the server
			return null;
		}
	}

	/** The live postmaster named in the data directory's postmaster.pid, if any. */
	private static Optional<ProcessHandle> postmaster(Path dataDirectory) throws IOException {
		Path pidFile = dataDirectory.resolve("postmaster.pid");
		if (!Files.exists(pidFile)) {
			return Optional.empty();
		}
		List<String> lines = Files.readAllLines(pidFile);
		if (lines.isEmpty()) {
			return Optional.empty();
		}
		long pid;
		try {
			pid = Long.parseLong(lines.get(0).trim());
		}
		catch (NumberFormatException ex) {
			return Optional.empty();
		}
		return ProcessHandle.of(pid)
			.filter(ProcessHandle::isAlive)
			.filter((process) -> process.info().command().map((command) -> command.endsWith("postgres")).orElse(false));
	}

	private static void checkPortFree(int port) {
		if (port == 0) {
			return;
		}
		try (ServerSocket socket = new ServerSocket()) {
			socket.setReuseAddress(true);
			socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
		}
		catch (IOException ex) {
			throw new IllegalStateException(
					"Port " + port + " for the embedded PostgreSQL server is in use. Set"
							+ " durable.workflow.embedded-postgres.port to another port, or to 0 for any free port.",
					ex);
		}
	}

}
