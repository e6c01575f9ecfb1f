package dev.durable.sample.approval;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An approval survives a crash of the real application: the sample started as its own
 * process (a fresh embedded PostgreSQL data directory, free ports), a document submitted,
 * the process killed with {@code kill -9}, a new process started on the same data
 * directory, the decision taken there, and the run completes, its document stored once.
 */
class ApprovalRestartIT {

	private static final Duration STARTUP = Duration.ofMinutes(4);

	private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	private final List<Process> processes = new ArrayList<>();

	private final Path directory = Path.of("target", "restart-it-" + UUID.randomUUID()).toAbsolutePath();

	@AfterEach
	void stopProcesses() throws InterruptedException {
		for (Process process : this.processes) {
			process.destroy(); // a graceful stop also stops the embedded PostgreSQL
			if (!process.waitFor(90, TimeUnit.SECONDS)) {
				process.destroyForcibly();
			}
		}
	}

	@Test
	void theRunContinuesAfterKillMinus9() throws Exception {
		int httpPort = freePort();
		int postgresPort = freePort();
		Process first = start(httpPort, postgresPort, "first");
		String id = "restart-" + UUID.randomUUID();
		ResponseEntity<Map<String, Object>> submitted = http(httpPort).post()
			.uri("/api/documents")
			.contentType(MediaType.APPLICATION_JSON)
			.body(new DocumentSubmission(id, "Security policy", "carol@example.com", "v1"))
			.retrieve()
			.toEntity(JSON);
		assertThat(submitted.getStatusCode()).isEqualTo(HttpStatus.CREATED);
		awaitStatus(httpPort, id, "AWAITING_PRIMARY");

		first.destroyForcibly(); // SIGKILL: no shutdown hook, no release of the run
		assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();

		int secondHttpPort = freePort();
		start(secondHttpPort, postgresPort, "second");
		assertThat(state(secondHttpPort, id).get("status")).isEqualTo("AWAITING_PRIMARY");
		ResponseEntity<Map<String, Object>> decided = http(secondHttpPort).post()
			.uri("/api/documents/{id}/decision", id)
			.contentType(MediaType.APPLICATION_JSON)
			.body(ApprovalDecision.approve("alice@example.com", "approved after the crash"))
			.retrieve()
			.toEntity(JSON);
		assertThat(decided.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(decided.getBody()).containsEntry("approved", true);

		Map<String, Object> state = awaitStatus(secondHttpPort, id, "APPROVED");
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> trail = (List<Map<String, Object>>) state.get("auditTrail");
		assertThat(trail).extracting((entry) -> entry.get("event"))
			.containsExactly("SUBMITTED", "STORED", "AWAITING_PRIMARY", "APPROVED");
	}

	private Process start(int httpPort, int postgresPort, String name) throws IOException, InterruptedException {
		Files.createDirectories(this.directory);
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), ApprovalApplication.class.getName(), "--server.port=" + httpPort,
				"--durable.workflow.embedded-postgres.data-directory=" + this.directory.resolve("pgdata"),
				"--durable.workflow.embedded-postgres.port=" + postgresPort);
		File log = this.directory.resolve(name + ".log").toFile();
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
		this.processes.add(process);
		long deadline = System.nanoTime() + STARTUP.toNanos();
		while (System.nanoTime() < deadline) {
			assertThat(process.isAlive()).as("the %s application is running (see %s)", name, log).isTrue();
			try {
				ResponseEntity<Map<String, Object>> health = http(httpPort).get()
					.uri("/actuator/health")
					.retrieve()
					.onStatus((status) -> true, (request, response) -> {
					})
					.toEntity(JSON);
				if (health.getStatusCode().is2xxSuccessful()) {
					return process;
				}
			}
			catch (RuntimeException ex) {
				// not listening yet
			}
			Thread.sleep(500);
		}
		throw new AssertionError("The " + name + " application did not start within " + STARTUP + " (see " + log + ")");
	}

	private Map<String, Object> awaitStatus(int httpPort, String id, String status) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
		Map<String, Object> state = null;
		while (System.nanoTime() < deadline) {
			state = state(httpPort, id);
			if (status.equals(state.get("status"))) {
				return state;
			}
			Thread.sleep(200);
		}
		throw new AssertionError("Document " + id + " did not reach " + status + ": " + state);
	}

	private static Map<String, Object> state(int httpPort, String id) {
		return http(httpPort).get().uri("/api/documents/{id}", id).retrieve().body(JSON);
	}

	private static RestClient http(int port) {
		return RestClient.create("http://localhost:" + port);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
