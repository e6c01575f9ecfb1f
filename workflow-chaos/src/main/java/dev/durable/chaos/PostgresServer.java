package dev.durable.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;

/**
 * The harness's own PostgreSQL server, in a directory of its own, controlled with the
 * server's own {@code pg_ctl} so that it can be restarted under load: {@code -m fast}
 * (sessions ended, a checkpoint) and {@code -m immediate} (processes quit at once, crash
 * recovery on start). The binaries are {@code -Dchaos.pg.bin}, Debian's
 * {@code /usr/lib/postgresql/<version>/bin}, or the embedded (zonky) bundle's. PostgreSQL
 * refuses to run as root: as root, the tools run as the {@code postgres} user.
 */
final class PostgresServer implements ChaosDatabase {

	private final Path bin;

	private final Path dir;

	private final boolean asRoot;

	final int port;

	private boolean running;

	private PostgresServer(Path bin, int port) throws IOException {
		this.bin = bin;
		this.port = port;
		this.asRoot = "root".equals(System.getProperty("user.name"));
		this.dir = Files.createTempDirectory("durable-chaos-pg");
		if (this.asRoot) {
			run(List.of("chown", "postgres:postgres", this.dir.toString()), false);
		}
	}

	/**
	 * Initializes and starts a server on the first free port from {@code firstPort}, on
	 * loopback.
	 */
	static PostgresServer start(int firstPort) throws IOException {
		return start(firstPort, null);
	}

	/**
	 * Initializes and starts a server on the first free port from {@code firstPort},
	 * listening on loopback and, when given, on {@code networkAddress} too (the host's
	 * address on the chaos network's bridge), where it trusts that address's /24.
	 */
	static PostgresServer start(int firstPort, @Nullable String networkAddress) throws IOException {
		PostgresServer server = new PostgresServer(binaries(), freePort(firstPort));
		try {
			server.tool("initdb", "-D", server.data().toString(), "-U", "postgres", "--auth=trust", "-E", "UTF8",
					"--locale=C", "--no-sync");
			Files.writeString(server.data().resolve("postgresql.conf"),
					String.join("\n", "",
							"listen_addresses = '127.0.0.1" + ((networkAddress != null) ? "," + networkAddress : "")
									+ "'",
							"port = " + server.port, "unix_socket_directories = '" + server.dir + "'",
							"max_connections = 200", "fsync = off", "synchronous_commit = on", "shared_buffers = 128MB",
							""),
					StandardCharsets.UTF_8, StandardOpenOption.APPEND);
			if (networkAddress != null) {
				Files.writeString(
						server.data().resolve("pg_hba.conf"), "\nhost all all "
								+ networkAddress.substring(0, networkAddress.lastIndexOf('.')) + ".0/24 trust\n",
						StandardCharsets.UTF_8, StandardOpenOption.APPEND);
			}
			server.startServer();
			return server;
		}
		catch (IOException | RuntimeException ex) {
			server.close();
			throw ex;
		}
	}

	@Override
	public String url() {
		return "jdbc:postgresql://127.0.0.1:" + this.port + "/postgres";
	}

	@Override
	public String user() {
		return "postgres";
	}

	@Override
	public String password() {
		return "";
	}

	@Override
	public boolean canRestart() {
		return true;
	}

	@Override
	public void restart(String mode) throws IOException {
		tool("pg_ctl", "-D", data().toString(), "-m", mode, "-w", "stop");
		this.running = false;
		startServer();
	}

	@Override
	public String logTail(int lines) {
		try {
			List<String> all = Files.readAllLines(this.dir.resolve("server.log"), StandardCharsets.UTF_8);
			return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
		}
		catch (IOException ex) {
			return "(server log unreadable: " + ex.getMessage() + ")";
		}
	}

	private Path data() {
		return this.dir.resolve("data");
	}

	private void startServer() throws IOException {
		tool("pg_ctl", "-D", data().toString(), "-l", this.dir.resolve("server.log").toString(), "-w", "start");
		this.running = true;
	}

	private static Path binaries() throws IOException {
		List<Path> candidates = new ArrayList<>();
		String given = System.getProperty("chaos.pg.bin", System.getenv("CHAOS_PG_BIN"));
		if (given != null && !given.isBlank()) {
			candidates.add(Path.of(given));
		}
		candidates.addAll(children(Path.of("/usr/lib/postgresql"), "bin"));
		Optional<Path> found = usable(candidates);
		if (found.isPresent()) {
			return found.get();
		}
		// the embedded bundle unpacks itself on its first start; one start and stop
		// leaves its binaries
		try (EmbeddedPostgres unpacked = EmbeddedPostgres.builder().start()) {
			// nothing to do with it
		}
		return usable(children(Path.of(System.getProperty("java.io.tmpdir"), "embedded-pg"), "bin"))
			.orElseThrow(() -> new IOException("No PostgreSQL binaries with initdb and pg_ctl: set -Dchaos.pg.bin"));
	}

	private static List<Path> children(Path parent, String child) {
		if (!Files.isDirectory(parent)) {
			return List.of();
		}
		try (Stream<Path> entries = Files.list(parent)) {
			return entries.map((p) -> p.resolve(child)).sorted(Comparator.reverseOrder()).toList();
		}
		catch (IOException ex) {
			return List.of();
		}
	}

	private static Optional<Path> usable(List<Path> candidates) {
		return candidates.stream()
			.filter((p) -> Files.isExecutable(p.resolve("initdb")) && Files.isExecutable(p.resolve("pg_ctl")))
			.findFirst();
	}

	private void tool(String name, String... args) throws IOException {
		List<String> command = new ArrayList<>(List.of(this.bin.resolve(name).toString()));
		command.addAll(List.of(args));
		run(command, this.asRoot);
	}

	private static void run(List<String> command, boolean asPostgres) throws IOException {
		List<String> full = new ArrayList<>();
		if (asPostgres) {
			full.addAll(List.of("runuser", "-u", "postgres", "--"));
		}
		full.addAll(command);
		Process process = new ProcessBuilder(full).redirectErrorStream(true).start();
		String output;
		try {
			if (!process.waitFor(120, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				throw new IOException("Timed out: " + full);
			}
			output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted: " + full, ex);
		}
		if (process.exitValue() != 0) {
			throw new IOException("Failed (exit " + process.exitValue() + "): " + full + "\n" + output);
		}
	}

	static int freePort(int first) {
		for (int port = first; port < first + 100; port++) {
			try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
				return port;
			}
			catch (IOException ex) {
				// taken
			}
		}
		throw new IllegalStateException("No free port in " + first + "-" + (first + 99));
	}

	@Override
	public void close() {
		try {
			if (this.running) {
				tool("pg_ctl", "-D", data().toString(), "-m", "immediate", "stop");
			}
		}
		catch (IOException ex) {
			// best effort; the directory goes below either way
		}
		try (Stream<Path> paths = Files.walk(this.dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((p) -> p.toFile().delete());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
