package dev.durable.workflow.autoconfigure.shutdown;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * SIGTERM to a real JVM running the starter on its embedded database, with an activity
 * under way ({@link ShutdownApplication}: a workflow of two steps, each recording its
 * executions). The stopping node starts no new activity, lets the one under way finish
 * (up to {@code durable.workflow.worker.shutdown-timeout}) and commits its outcome,
 * releases the run, and the JVM exits within the timeout and a few seconds; the embedded
 * PostgreSQL server stops after the engine. A second JVM on the same data directory
 * completes the workflow with each step run once. Every node has a {@code dead-after} of
 * a minute: the second JVM can take the run within the test's waits only because the
 * first released it.
 *
 * <p>
 * The JVMs' output is in {@code target/graceful-shutdown-it/<test>/}.
 */
class GracefulShutdownIT {

	private static final Duration STARTUP = Duration.ofSeconds(90);

	/**
	 * What the stop may take beyond the shutdown timeout (the JVM's own exit included).
	 */
	private static final Duration SLACK = Duration.ofSeconds(5);

	private final List<Process> processes = new ArrayList<>();

	private final int port = freePort();

	private final Path dir = Path.of("target", "graceful-shutdown-it", UUID.randomUUID().toString()).toAbsolutePath();

	/** A connection per statement: the database goes away with each process. */
	private final JdbcTemplate jdbc = new JdbcTemplate(
			new DriverManagerDataSource("jdbc:postgresql://localhost:" + this.port + "/postgres", "postgres", ""));

	@AfterEach
	void stop() throws Exception {
		for (Process process : this.processes) {
			if (process.isAlive()) {
				process.destroy();
				if (!process.waitFor(60, TimeUnit.SECONDS)) {
					process.destroyForcibly();
					process.waitFor(30, TimeUnit.SECONDS);
				}
			}
		}
		// the logs stay; the database's files (tens of MB) go
		Path data = this.dir.resolve("pgdata");
		if (Files.exists(data)) {
			try (var files = Files.walk(data)) {
				files.sorted(java.util.Comparator.reverseOrder()).forEach((file) -> file.toFile().delete());
			}
		}
	}

	@Test
	@Timeout(value = 4, unit = TimeUnit.MINUTES)
	void theActivityUnderWayFinishesAndCommitsAndTheNextOneRunsOnceAfterTheRestart() throws Exception {
		Duration timeout = Duration.ofSeconds(10);
		Process first = start("first", timeout, 4000, "wf-graceful");
		awaitExecution(first, "first");

		long sigterm = System.nanoTime();
		first.destroy(); // SIGTERM
		assertThat(first.waitFor(timeout.plus(SLACK).toSeconds(), TimeUnit.SECONDS)).as("the JVM exited").isTrue();
		Duration took = Duration.ofNanos(System.nanoTime() - sigterm);
		// the stop waited for the step under way (4 s), not for the timeout
		assertThat(took).as("time from SIGTERM to exit").isLessThan(timeout);
		String log = Files.readString(log("first"));
		assertStoppedInOrder(log);

		Process second = start("second", timeout, 4000, null);
		awaitCompleted(second, "wf-graceful");
		List<Map<String, Object>> executions = executions();
		assertThat(executions).extracting((row) -> row.get("step") + "@" + row.get("pid") + "#" + row.get("attempt"))
			.containsExactly("first@" + first.pid() + "#1", "second@" + second.pid() + "#1");
		assertThat(executions).allSatisfy((row) -> assertThat(row.get("ended_at")).isNotNull());
		Timestamp secondStarted = (Timestamp) executions.get(1).get("started_at");
		assertThat(secondStarted.toInstant()).as("the second step started after the first JVM exited")
			.isAfter(((Timestamp) executions.get(0).get("ended_at")).toInstant());
	}

	@Test
	@Timeout(value = 4, unit = TimeUnit.MINUTES)
	void anActivityLongerThanTheTimeoutIsGivenUpAtTheTimeoutAndTheRunIsTakenOver() throws Exception {
		Duration timeout = Duration.ofSeconds(4);
		Process first = start("first", timeout, 60_000, "wf-abandoned");
		awaitExecution(first, "first");

		long sigterm = System.nanoTime();
		first.destroy();
		assertThat(first.waitFor(timeout.plus(SLACK).toSeconds(), TimeUnit.SECONDS)).as("the JVM exited").isTrue();
		Duration took = Duration.ofNanos(System.nanoTime() - sigterm);
		assertThat(took).as("time from SIGTERM to exit").isBetween(timeout, timeout.plus(SLACK));
		String log = Files.readString(log("first"));
		assertThat(log).contains("Giving up 1 inline activity attempt(s)");
		assertStoppedInOrder(log);

		Process second = start("second", timeout, 500, null);
		awaitCompleted(second, "wf-abandoned");
		// the given-up attempt ran again (at least once), then the second step, once
		assertThat(executions()).extracting((row) -> row.get("step") + "@" + row.get("pid") + "#" + row.get("attempt"))
			.containsExactly("first@" + first.pid() + "#1", "first@" + second.pid() + "#2",
					"second@" + second.pid() + "#1");
	}

	/**
	 * The engine stopped and released its runs while the database was up, and the
	 * embedded server stopped after it: no connection failed on the way.
	 */
	private static void assertStoppedInOrder(String log) {
		int engineStopped = log.indexOf("Durable workflow engine stopped");
		int databaseStopped = log.indexOf("Stopped the embedded PostgreSQL server");
		assertThat(engineStopped).as("the engine's stop in the log").isNotNegative();
		assertThat(databaseStopped).as("the embedded server's stop after the engine's").isGreaterThan(engineStopped);
		assertThat(log).doesNotContain("Could not release the runs", "Connection refused",
				"terminating connection due to administrator command", "did not complete", "HikariPool-1 - Exception",
				"marked as broken");
	}

	private Process start(String name, Duration shutdownTimeout, long firstMillis, String workflowId)
			throws IOException {
		Files.createDirectories(this.dir);
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new ArrayList<>(List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
				"-cp", System.getProperty("java.class.path"), ShutdownApplication.class.getName(),
				"--spring.main.web-application-type=none",
				"--durable.workflow.embedded-postgres.data-directory=" + this.dir.resolve("pgdata"),
				"--durable.workflow.embedded-postgres.port=" + this.port,
				"--durable.workflow.node.heartbeat-interval=1s", "--durable.workflow.node.dead-after=60s",
				"--durable.workflow.worker.shutdown-timeout=" + shutdownTimeout.toMillis() + "ms",
				"--shutdown-it.first-millis=" + firstMillis));
		if (workflowId != null) {
			command.add("--shutdown-it.start=" + workflowId);
		}
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log(name).toFile())
			.start();
		this.processes.add(process);
		return process;
	}

	private Path log(String name) {
		return this.dir.resolve(name + ".log");
	}

	/** Waits until the process runs the step. */
	private void awaitExecution(Process process, String step) {
		await("step " + step + " runs in process " + process.pid()).atMost(STARTUP)
			.pollInterval(Duration.ofMillis(100))
			.ignoreExceptions()
			.until(() -> {
				assertThat(process.isAlive()).as("process %d is alive", process.pid()).isTrue();
				return this.jdbc.queryForObject(
						"SELECT count(*) FROM " + ShutdownApplication.TABLE + " WHERE step = ? AND pid = ?",
						Integer.class, step, process.pid()) > 0;
			});
	}

	private void awaitCompleted(Process process, String workflowId) {
		await("workflow " + workflowId + " completes in process " + process.pid()).atMost(STARTUP)
			.pollInterval(Duration.ofMillis(200))
			.ignoreExceptions()
			.until(() -> {
				assertThat(process.isAlive()).as("process %d is alive", process.pid()).isTrue();
				return "COMPLETED".equals(this.jdbc.queryForObject(
						"SELECT status FROM durable.workflow_run WHERE workflow_id = ?", String.class, workflowId));
			});
	}

	private List<Map<String, Object>> executions() {
		return this.jdbc.queryForList(
				"SELECT step, pid, attempt, started_at, ended_at FROM " + ShutdownApplication.TABLE + " ORDER BY id");
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
