package dev.durable.workflow.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL primary and one streaming replica on 127.0.0.1, for failover tests:
 * initdb, {@code pg_basebackup -R} (which writes {@code standby.signal} and
 * {@code primary_conninfo}), immediate stop of the primary and promotion of the replica,
 * all through the server's own tools.
 *
 * <p>
 * The embedded (zonky) bundle carries only {@code initdb}, {@code pg_ctl} and
 * {@code postgres}, no {@code pg_basebackup}, so the binaries come from
 * {@code -Ddurable.pg.bin=
 *
<dir>
 * }, the {@code DURABLE_PG_BIN} environment variable, or Debian's
 * {@code /usr/lib/postgresql/<version>/bin} (package {@code postgresql}, which CI
 * installs). PostgreSQL refuses to run as root: when the JVM is root, every tool runs as
 * the {@code postgres} user through {@code runuser}.
 */
public final class PostgresCluster implements AutoCloseable {

	private final Path bin;

	private final Path dir;

	private final boolean asRoot;

	public final int primaryPort;

	public final int replicaPort;

	private boolean primaryRunning;

	private boolean replicaRunning;

	private PostgresCluster(Path bin, int firstPort, int lastPort) throws IOException {
		this.bin = bin;
		this.asRoot = "root".equals(System.getProperty("user.name"));
		this.dir = Files.createTempDirectory("durable-failover");
		if (this.asRoot) {
			run(List.of("chown", "postgres:postgres", this.dir.toString()), false);
		}
		this.primaryPort = freePort(firstPort, lastPort, -1);
		this.replicaPort = freePort(firstPort, lastPort, this.primaryPort);
	}

	/**
	 * The directory of PostgreSQL binaries with {@code pg_basebackup}, if any is found.
	 */
	public static Optional<Path> binaries() {
		List<Path> candidates = new ArrayList<>();
		String property = System.getProperty("durable.pg.bin", System.getenv("DURABLE_PG_BIN"));
		if (property != null && !property.isBlank()) {
			candidates.add(Path.of(property));
		}
		Path debian = Path.of("/usr/lib/postgresql");
		if (Files.isDirectory(debian)) {
			try (Stream<Path> versions = Files.list(debian)) {
				versions.map((v) -> v.resolve("bin"))
					.sorted(Comparator.comparing((Path p) -> versionOf(p)).reversed())
					.forEach(candidates::add);
			}
			catch (IOException ex) {
				// no candidates from there
			}
		}
		return candidates.stream()
			.filter((p) -> Files.isExecutable(p.resolve("pg_basebackup")) && Files.isExecutable(p.resolve("pg_ctl")))
			.findFirst();
	}

	private static int versionOf(Path bin) {
		try {
			return Integer.parseInt(bin.getParent().getFileName().toString());
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	/**
	 * Starts a primary and a streaming replica on two free ports of the range.
	 * @param synchronous whether the primary waits for the replica's flush before
	 * acknowledging a commit ({@code synchronous_standby_names = '*'},
	 * {@code synchronous_commit = on})
	 */
	public static PostgresCluster start(Path bin, int firstPort, int lastPort, boolean synchronous) throws IOException {
		PostgresCluster cluster = new PostgresCluster(bin, firstPort, lastPort);
		try {
			cluster.initPrimary(synchronous);
			cluster.startReplica();
			return cluster;
		}
		catch (IOException | RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	private Path primaryDir() {
		return this.dir.resolve("primary");
	}

	private Path replicaDir() {
		return this.dir.resolve("replica");
	}

	private void initPrimary(boolean synchronous) throws IOException {
		tool("initdb", "-D", primaryDir().toString(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C",
				"--no-sync");
		// fsync off: the test kills server processes, never the machine, so the OS keeps
		// every
		// write; what is acknowledged is governed by the replication settings, not by
		// fsync
		appendConf(primaryDir(), "listen_addresses = '127.0.0.1'", "port = " + this.primaryPort,
				"unix_socket_directories = '" + this.dir + "'", "wal_level = replica", "max_wal_senders = 5",
				"hot_standby = on", "track_commit_timestamp = on", "fsync = off", "max_connections = 200",
				"synchronous_commit = on", "synchronous_standby_names = '" + (synchronous ? "*" : "") + "'");
		tool("pg_ctl", "-D", primaryDir().toString(), "-l", this.dir.resolve("primary.log").toString(), "-w", "start");
		this.primaryRunning = true;
	}

	private void startReplica() throws IOException {
		tool("pg_basebackup", "-h", "127.0.0.1", "-p", Integer.toString(this.primaryPort), "-U", "postgres", "-D",
				replicaDir().toString(), "-R", "-X", "stream", "--no-sync");
		// the promoted replica has no standby of its own: were it to keep the primary's
		// synchronous_standby_names, every commit would wait forever after the failover
		appendConf(replicaDir(), "port = " + this.replicaPort, "synchronous_standby_names = ''");
		tool("pg_ctl", "-D", replicaDir().toString(), "-l", this.dir.resolve("replica.log").toString(), "-w", "start");
		this.replicaRunning = true;
	}

	/** The multi-host URL engines use: whichever of the two servers is the primary. */
	public String multiHostUrl() {
		return "jdbc:postgresql://127.0.0.1:" + this.primaryPort + ",127.0.0.1:" + this.replicaPort
				+ "/postgres?targetServerType=primary";
	}

	/** A URL to one server only. */
	public static String url(int port) {
		return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
	}

	/** A direct connection to one server (autocommit). */
	public static Connection connect(int port) throws SQLException {
		return DriverManager.getConnection(url(port), "postgres", "");
	}

	/**
	 * Stops the primary with {@code -m immediate}: its processes quit without a
	 * checkpoint, like a crash.
	 */
	public void killPrimary() throws IOException {
		tool("pg_ctl", "-D", primaryDir().toString(), "-m", "immediate", "stop");
		this.primaryRunning = false;
	}

	/** Promotes the replica and waits until it accepts writes. */
	public void promoteReplica() throws IOException {
		tool("pg_ctl", "-D", replicaDir().toString(), "-w", "promote");
	}

	/**
	 * Stops the replica (fast shutdown): the primary keeps running, its WAL no longer
	 * streamed.
	 */
	public void stopReplica() throws IOException {
		tool("pg_ctl", "-D", replicaDir().toString(), "-m", "fast", "-w", "stop");
		this.replicaRunning = false;
	}

	/**
	 * Starts the stopped replica again (as a standby; it streams again while the primary
	 * lives).
	 */
	public void restartReplica() throws IOException {
		tool("pg_ctl", "-D", replicaDir().toString(), "-l", this.dir.resolve("replica.log").toString(), "-w", "start");
		this.replicaRunning = true;
	}

	/** The servers' logs, for a failure message. */
	public String logs() {
		StringBuilder logs = new StringBuilder();
		for (String name : List.of("primary.log", "replica.log")) {
			Path log = this.dir.resolve(name);
			try {
				List<String> lines = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
				logs.append("--- ").append(name).append('\n');
				lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach((l) -> logs.append(l).append('\n'));
			}
			catch (IOException ex) {
				logs.append("(").append(name).append(" unreadable: ").append(ex).append(")\n");
			}
		}
		return logs.toString();
	}

	private static void appendConf(Path dataDir, String... lines) throws IOException {
		Files.writeString(dataDir.resolve("postgresql.conf"), "\n" + String.join("\n", lines) + "\n",
				StandardCharsets.UTF_8, StandardOpenOption.APPEND);
	}

	private void tool(String name, String... args) throws IOException {
		List<String> command = new ArrayList<>(List.of(this.bin.resolve(name).toString()));
		command.addAll(List.of(args));
		run(command, this.asRoot);
	}

	private void run(List<String> command, boolean asPostgres) throws IOException {
		List<String> full = new ArrayList<>();
		if (asPostgres) {
			full.addAll(List.of("runuser", "-u", "postgres", "--"));
		}
		full.addAll(command);
		Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
		try {
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IOException("Timed out: " + full);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted: " + full, ex);
		}
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (process.exitValue() != 0) {
			throw new IOException("Failed (exit " + process.exitValue() + "): " + full + "\n" + output + "\n" + logs());
		}
	}

	private static int freePort(int first, int last, int except) {
		for (int port = first; port <= last; port++) {
			if (port == except) {
				continue;
			}
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
				return port;
			}
			catch (IOException ex) {
				// taken
			}
		}
		throw new IllegalStateException("No free port in " + first + "-" + last);
	}

	@Override
	public void close() {
		try {
			if (this.replicaRunning) {
				tool("pg_ctl", "-D", replicaDir().toString(), "-m", "immediate", "stop");
			}
			if (this.primaryRunning) {
				tool("pg_ctl", "-D", primaryDir().toString(), "-m", "immediate", "stop");
			}
		}
		catch (IOException ex) {
			// best effort; the directory is removed below either way
		}
		try (Stream<Path> paths = Files.walk(this.dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((p) -> p.toFile().delete());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
