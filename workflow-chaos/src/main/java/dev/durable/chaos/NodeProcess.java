package dev.durable.chaos;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One engine JVM of the chaos application, started as a process with the harness's class
 * path. Its database connections carry {@code ApplicationName=chaos-<name>}, which is how
 * the harness finds them to cut them. Its output goes to {@code <name>.log}, appended
 * across restarts.
 */
final class NodeProcess {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	final String name;

	final int httpPort;

	final Path log;

	/**
	 * The address the harness reaches it at: loopback, or its address in its network
	 * namespace.
	 */
	final String address;

	private final List<String> command;

	private volatile Process process;

	private volatile boolean paused;

	private volatile boolean ready;

	NodeProcess(String name, int httpPort, ChaosDatabase database, Path logDirectory, Duration clockOffset) {
		this(name, httpPort, database, database.url(), logDirectory, List.of(), "127.0.0.1", clockOffset);
	}

	/**
	 * A node started through {@code launcher} (e.g. {@code ip netns exec <namespace>}),
	 * reached at {@code address}, its pool connecting to {@code databaseUrl}.
	 * @param clockOffset how far the node's engine clock is off the machine's (zero: not
	 * at all)
	 */
	NodeProcess(String name, int httpPort, ChaosDatabase database, String databaseUrl, Path logDirectory,
			List<String> launcher, String address, Duration clockOffset) {
		this.name = name;
		this.httpPort = httpPort;
		this.address = address;
		this.log = logDirectory.resolve(name + ".log");
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		this.command = new ArrayList<>(launcher);
		this.command.addAll(List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), ChaosApplication.class.getName(), "--server.port=" + httpPort,
				"--chaos.node=" + name,
				"--spring.datasource.url=" + databaseUrl + (databaseUrl.contains("?") ? "&" : "?")
						+ "ApplicationName=chaos-" + name,
				"--spring.datasource.username=" + database.user(),
				"--spring.datasource.password=" + database.password()));
		if (!clockOffset.isZero()) {
			this.command.add("--chaos.clock-offset=" + clockOffset);
		}
	}

	/**
	 * Starts the JVM and waits until it answers its health endpoint, starting it again if
	 * it exits.
	 */
	void start(Duration timeout) throws IOException, InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			this.ready = false;
			this.process = new ProcessBuilder(this.command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()))
				.start();
			while (this.process.isAlive() && System.nanoTime() < deadline) {
				if (healthy()) {
					this.ready = true;
					return;
				}
				Thread.sleep(250);
			}
			// it exited (a start while the database restarts fails): start it again
		}
		throw new IOException("Node " + this.name + " did not start within " + timeout + " (see " + this.log + ")");
	}

	private boolean healthy() {
		try {
			HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/actuator/health"))
				.timeout(Duration.ofSeconds(2))
				.build(), HttpResponse.BodyHandlers.discarding());
			return response.statusCode() == 200;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	String baseUrl() {
		return "http://" + this.address + ":" + this.httpPort;
	}

	/** Whether requests may go to it: started, answering, not paused. */
	boolean isServing() {
		Process current = this.process;
		return this.ready && !this.paused && current != null && current.isAlive();
	}

	/** SIGKILL: no shutdown hook, no release of its runs. */
	void kill() throws InterruptedException {
		this.ready = false;
		Process current = this.process;
		if (current != null) {
			current.destroyForcibly();
			current.waitFor(30, TimeUnit.SECONDS);
		}
	}

	/** SIGSTOP: the JVM stops where it is (heartbeats too) until {@link #resume()}. */
	void pause() throws IOException, InterruptedException {
		this.paused = true;
		signal("-STOP");
	}

	/** SIGCONT. */
	void resume() throws IOException, InterruptedException {
		signal("-CONT");
		this.paused = false;
	}

	private void signal(String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", signal, Long.toString(this.process.pid())).inheritIO().start();
		if (kill.waitFor() != 0) {
			throw new IOException("kill " + signal + " failed for node " + this.name);
		}
	}

	/** SIGTERM, then SIGKILL after 30 seconds. */
	void stop() throws InterruptedException {
		Process current = this.process;
		if (current == null) {
			return;
		}
		if (this.paused) {
			try {
				resume();
			}
			catch (IOException ex) {
				// killed below
			}
		}
		current.destroy();
		if (!current.waitFor(30, TimeUnit.SECONDS)) {
			current.destroyForcibly();
			current.waitFor(10, TimeUnit.SECONDS);
		}
	}

}
