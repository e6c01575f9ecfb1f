package dev.durable.sample.loan;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample survives {@code kill -9}: the application runs as a separate process on a
 * fresh data directory, a loan with a bad SSN pauses for a fix, the process is killed
 * with SIGKILL, a second process starts on the same data directory, the fix is sent to
 * it, and the loan completes, with the steps done before the crash not run again.
 */
class LoanRestartIT {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

	private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	private final List<Process> processes = new ArrayList<>();

	private final Map<Process, Integer> ports = new HashMap<>();

	@AfterEach
	void stopProcesses() throws InterruptedException {
		for (Process process : this.processes) {
			if (process.isAlive()) {
				process.destroy(); // SIGTERM: the application stops its embedded
									// PostgreSQL
				if (!process.waitFor(30, TimeUnit.SECONDS)) {
					process.destroyForcibly();
				}
			}
		}
	}

	@Test
	void aLoanPausedForAFixCompletesAfterTheProcessIsKilledAndStartedAgain() throws Exception {
		Path dataDirectory = Path.of("target", "restart-it-" + UUID.randomUUID(), "pgdata").toAbsolutePath();
		String workflowId = "loan-restart-" + UUID.randomUUID();

		Process first = startApplication(dataDirectory, "first");
		int firstPort = awaitReady(first);
		RestClient http = RestClient.create("http://localhost:" + firstPort);
		http.post()
			.uri("/api/workflows")
			.contentType(MediaType.APPLICATION_JSON)
			.body(HomeLoanWorkflowTest.application().withApplicationId(workflowId).with("ssn", "12-345-678"))
			.retrieve()
			.toBodilessEntity();
		Awaitility.await()
			.atMost(STARTUP_TIMEOUT)
			.until(() -> "PENDING_FIX".equals(state(http, workflowId).get("status")));
		assertThat(state(http, workflowId).get("completedActivities")).asInstanceOf(InstanceOfAssertFactories.LIST)
			.containsExactly("verifyIncome");

		first.destroyForcibly(); // SIGKILL: no shutdown hook runs
		assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(first.exitValue()).isEqualTo(137);

		Process second = startApplication(dataDirectory, "second");
		RestClient again = RestClient.create("http://localhost:" + awaitReady(second));
		Awaitility.await()
			.atMost(STARTUP_TIMEOUT)
			.until(() -> "PENDING_FIX".equals(state(again, workflowId).get("status")));
		again.post()
			.uri("/api/workflows/{id}/fix", workflowId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("key", "ssn", "value", "123-45-6789", "id", "restart-fix"))
			.retrieve()
			.toBodilessEntity();
		Map<String, Object> view = again.get().uri("/api/workflows/{id}?wait=PT90S", workflowId).retrieve().body(JSON);
		assertThat(view).extractingByKey("result")
			.asInstanceOf(InstanceOfAssertFactories.MAP)
			.containsEntry("status", "CLOSED")
			.extractingByKey("completedActivities")
			.asInstanceOf(InstanceOfAssertFactories.LIST)
			.containsExactly("verifyIncome", "checkCredit", "orderAppraisal", "searchTitle", "underwrite", "closeLoan");
		// verifyIncome ran once, in the first process: the second one did not repeat it
		String secondLog = Files.readString(log(dataDirectory, "second"));
		assertThat(secondLog).doesNotContain("verifying the income").contains("checking the credit");
	}

	private Map<String, Object> state(RestClient http, String workflowId) {
		Map<String, Object> view = http.get().uri("/api/workflows/{id}", workflowId).retrieve().body(JSON);
		@SuppressWarnings("unchecked")
		Map<String, Object> state = (Map<String, Object>) view.get("state");
		return (state != null) ? state : Map.of();
	}

	private Process startApplication(Path dataDirectory, String name) throws IOException {
		int port = freePort();
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = List.of(java, "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), LoanSampleApplication.class.getName(), "--server.port=" + port,
				"--durable.workflow.embedded-postgres.data-directory=" + dataDirectory,
				"--durable.workflow.embedded-postgres.port=0", "--durable.workflow.node.heartbeat-interval=1s",
				"--durable.workflow.node.dead-after=3s", "--loan.simulated-work=50ms",
				"--loan.transient-failure-rate=0", "--loan.closing-waiting-period=2s");
		Files.createDirectories(dataDirectory.getParent());
		Process process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(log(dataDirectory, name).toFile())
			.start();
		this.processes.add(process);
		this.ports.put(process, port);
		return process;
	}

	private int awaitReady(Process process) {
		int port = this.ports.get(process);
		RestClient http = RestClient.create("http://localhost:" + port);
		Awaitility.await().atMost(STARTUP_TIMEOUT).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
			assertThat(process.isAlive()).as("the application process is alive").isTrue();
			http.get().uri("/api/workflows").retrieve().toBodilessEntity();
			return true;
		});
		return port;
	}

	private static Path log(Path dataDirectory, String name) {
		return dataDirectory.resolveSibling(name + ".log");
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
