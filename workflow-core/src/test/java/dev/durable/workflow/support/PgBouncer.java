package dev.durable.workflow.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real PgBouncer (Debian's {@code pgbouncer} package) in transaction pooling mode in
 * front of a PostgreSQL on 127.0.0.1, run as a child process for a test. PgBouncer
 * refuses to run as root, so as root (CI) it is started with {@code -u nobody}; its files
 * are then made readable to that user. Its output goes to
 * {@code target/pgbouncer-it/pgbouncer.log}.
 */
public final class PgBouncer implements AutoCloseable {

	/** The ports this fixture may listen on (kept apart from other tests' servers). */
	private static final int FIRST_PORT = 18300;

	private static final int LAST_PORT = 18349;

	private final Process process;

	private final int port;

	private PgBouncer(Process process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * The pgbouncer executable: the {@code pgbouncer.path} system property, else Debian's
	 * {@code /usr/sbin/pgbouncer}, else {@code pgbouncer} on the {@code PATH}.
	 */
	public static Optional<Path> binary() {
		String configured = System.getProperty("pgbouncer.path");
		Stream<Path> candidates = Stream.concat(
				Stream.of((configured != null) ? Path.of(configured) : null, Path.of("/usr/sbin/pgbouncer")),
				Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
					.filter((dir) -> !dir.isEmpty())
					.map((dir) -> Path.of(dir, "pgbouncer")));
		return candidates.filter((path) -> path != null && Files.isExecutable(path)).findFirst();
	}

	/**
	 * Starts PgBouncer in front of the PostgreSQL on 127.0.0.1:{@code postgresPort},
	 * pooling its {@code postgres} database for user {@code postgres} (trust
	 * authentication).
	 * @param poolSize server sessions per database and user: small, so that many client
	 * connections really share few server sessions
	 */
	public static PgBouncer start(Path binary, int postgresPort, int poolSize) {
		try {
			Path dir = Files.createTempDirectory("pgbouncer-it");
			int port = freePort();
			Path ini = dir.resolve("pgbouncer.ini");
			Path users = dir.resolve("userlist.txt");
			Files.writeString(users, "\"postgres\" \"\"\n");
			Files.writeString(ini, String.join("\n", "[databases]",
					"postgres = host=127.0.0.1 port=" + postgresPort + " dbname=postgres", "", "[pgbouncer]",
					"listen_addr = 127.0.0.1", "listen_port = " + port, "unix_socket_dir =", "auth_type = trust",
					"auth_file = " + users, "pool_mode = transaction", "default_pool_size = " + poolSize,
					"max_client_conn = 200", "ignore_startup_parameters = extra_float_digits", "server_reset_query =",
					"log_connections = 0", "log_disconnections = 0", ""));
			for (Path path : List.of(dir, ini, users)) {
				Files.setPosixFilePermissions(path,
						PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
			}
			List<String> command = new ArrayList<>(List.of(binary.toString()));
			if ("root".equals(System.getProperty("user.name"))) {
				command.addAll(List.of("-u", "nobody")); // pgbouncer will not run as root
			}
			command.add(ini.toString());
			Path log = Path.of(System.getProperty("basedir", "."), "target", "pgbouncer-it", "pgbouncer.log");
			Files.createDirectories(log.getParent());
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
				.start();
			PgBouncer bouncer = new PgBouncer(process, port);
			bouncer.awaitListening(log);
			return bouncer;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The port PgBouncer listens on, on 127.0.0.1. */
	public int port() {
		return this.port;
	}

	/**
	 * A JDBC URL of the pooled {@code postgres} database (append driver options with
	 * {@code &}).
	 */
	public String jdbcUrl() {
		return "jdbc:postgresql://127.0.0.1:" + this.port + "/postgres?user=postgres";
	}

	private void awaitListening(Path log) throws IOException {
		Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
		while (Instant.now().isBefore(deadline)) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(
						"pgbouncer exited with " + this.process.exitValue() + ": " + Files.readString(log));
			}
			try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
				return;
			}
			catch (IOException notYet) {
				pause();
			}
		}
		close();
		throw new IllegalStateException("pgbouncer did not listen on port " + this.port + ": " + Files.readString(log));
	}

	private static int freePort() {
		for (int port = FIRST_PORT; port <= LAST_PORT; port++) {
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
				return port;
			}
			catch (IOException taken) {
				// try the next one
			}
		}
		throw new IllegalStateException("No free port in " + FIRST_PORT + "-" + LAST_PORT);
	}

	private static void pause() {
		try {
			Thread.sleep(50);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
			}
		}
		catch (InterruptedException ex) {
			this.process.destroyForcibly();
			Thread.currentThread().interrupt();
		}
	}

}
