package dev.durable.workflow.versioning;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

import dev.durable.workflow.test.EmbeddedPostgresSupport;
import dev.durable.workflow.versioning.it.v1.BuildOneApplication;
import dev.durable.workflow.versioning.it.v2.BuildTwoApplication;
import dev.durable.workflow.web.browser.DashboardApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two builds of one application as two JVMs on one database, talked to through their REST
 * APIs: pinned runs stay on build 1.0 while build 2.0 takes the new runs; ramping sends a
 * fixed share of new runs by workflow id; when build 1.0's node stops its runs show as
 * waiting for their build, and the operator's move replays them on build 2.0, moving the
 * compatible one and refusing the one whose code changed incompatibly; the old build then
 * drains.
 */
// two JVMs start, each in up to half a minute on a loaded machine
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class WorkerVersioningIT {

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

	private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	private final List<Process> processes = new ArrayList<>();

	private final String schema = EmbeddedPostgresSupport.newSchemaName();

	@AfterEach
	void stopProcesses() throws InterruptedException {
		for (Process process : this.processes) {
			if (process.isAlive()) {
				process.destroy();
				if (!process.waitFor(30, TimeUnit.SECONDS)) {
					process.destroyForcibly();
				}
			}
		}
	}

	@Test
	void pinnedRunsStayTheNewBuildTakesNewRunsAndStrandedRunsMoveOnlyWhenTheyReplay() throws Exception {
		Node one = start(BuildOneApplication.class, "1.0");
		start(one, "order", "order-old");
		start(one, "order", "order-stranded");
		start(one, "shipment", "shipment-stranded");
		for (String id : List.of("order-old", "order-stranded", "shipment-stranded")) {
			awaitWaitingForSignal(one, id);
			assertThat(build(one, id)).containsEntry("buildId", "1.0").containsEntry("pinned", true);
		}

		Node two = start(BuildTwoApplication.class, "2.0");
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> "2.0".equals(routing(one).get("currentBuild")));
		// a new run started through the old build's node goes to the current build
		start(one, "order", "order-new");
		awaitWaitingForSignal(two, "order-new");
		assertThat(build(two, "order-new")).containsEntry("buildId", "2.0");
		signal(two, "order-new");
		signal(two, "order-old");
		assertThat(result(two, "order-new")).isEqualTo("v2:a-order-new,b-order-new");
		assertThat(result(two, "order-old")).as("the old run stays on its build")
			.isEqualTo("v1:a-order-old,b-order-old");

		// ramping: build 2.0 takes the runs whose workflow id falls under 40%
		two.http.put().uri("/durable/builds/current?buildId=1.0").retrieve().toBodilessEntity();
		two.http.put().uri("/durable/builds/ramping?buildId=2.0&percent=40").retrieve().toBodilessEntity();
		Awaitility.await()
			.atMost(Duration.ofSeconds(30))
			.until(() -> Integer.valueOf(40).equals(routing(one).get("rampingPercent")));
		List<String> ramped = new ArrayList<>();
		for (int i = 0; i < 12; i++) {
			ramped.add("ramp-" + i);
		}
		// each node reads the routing once per poll interval: until both route by it
		awaitRouting(one, true);
		awaitRouting(one, false);
		awaitRouting(two, true);
		awaitRouting(two, false);
		for (String id : ramped) {
			start((ramped.indexOf(id) % 2 == 0) ? one : two, "order", id);
		}
		for (String id : ramped) {
			awaitWaitingForSignal(two, id);
			signal(two, id);
		}
		for (String id : ramped) {
			boolean onTwo = Math.floorMod(id.hashCode(), 100) < 40;
			assertThat(result(two, id).toString()).as(id).startsWith(onTwo ? "v2:" : "v1:");
		}
		two.http.put().uri("/durable/builds/ramping").retrieve().toBodilessEntity();
		two.http.put().uri("/durable/builds/current").retrieve().toBodilessEntity();

		// build 1.0's node stops: its runs wait, visibly
		one.stop();
		Map<String, Object> draining = buildStatus(two, "1.0");
		assertThat(draining).containsEntry("state", "DRAINING")
			.containsEntry("liveNodes", 0)
			.containsEntry("openPinnedRuns", 2)
			.containsEntry("strandedRuns", 2);
		assertThat(build(two, "order-stranded")).containsEntry("waitingForBuild", true);

		Map<String, Object> report = two.http.post().uri("/durable/builds/1.0/move?toBuild=2.0").retrieve().body(JSON);
		assertThat(report.get("moved").toString()).contains("order-stranded").doesNotContain("shipment-stranded");
		assertThat(report.get("refused").toString()).contains("shipment-stranded").contains("ACTIVITY_SCHEDULED");
		signal(two, "order-stranded");
		assertThat(result(two, "order-stranded")).isEqualTo("v2:a-order-stranded,b-order-stranded");
		assertThat(build(two, "shipment-stranded").get("moveRefused").toString()).contains("does not replay");

		two.http.post()
			.uri("/durable/workflows/shipment-stranded/terminate")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("reason", "incompatible with build 2.0"))
			.retrieve()
			.toBodilessEntity();
		assertThat(buildStatus(two, "1.0")).containsEntry("state", "DRAINED").containsEntry("openPinnedRuns", 0);
	}

	/**
	 * One JVM of the application.
	 *
	 * @param process its process
	 * @param http its REST API
	 */
	private record Node(Process process, RestClient http) {

		void stop() throws InterruptedException {
			this.process.destroy(); // SIGTERM: a graceful stop, which releases its runs
			assertThat(this.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		}

	}

	private Node start(Class<?> application, String buildId) throws IOException {
		int port = freePort();
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Path log = Path.of("target", "versioning-it", this.schema + "-" + buildId + ".log");
		Files.createDirectories(log.getParent());
		List<String> command = List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), application.getName(), "--server.port=" + port,
				"--spring.datasource.url=" + EmbeddedPostgresSupport.jdbcUrl(),
				"--spring.datasource.username=" + EmbeddedPostgresSupport.USER,
				"--durable.workflow.embedded-postgres.enabled=false", "--durable.workflow.schema=" + this.schema,
				"--durable.workflow.node.build-id=" + buildId, "--durable.workflow.web.operations-enabled=true",
				"--durable.workflow.worker.poll-interval=200ms", "--durable.workflow.node.heartbeat-interval=1s",
				"--durable.workflow.node.dead-after=4s", "--spring.main.banner-mode=off",
				"--" + DashboardApplication.WITHOUT_SECURITY);
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		this.processes.add(process);
		RestClient http = RestClient.create("http://localhost:" + port);
		Awaitility.await().atMost(STARTUP_TIMEOUT).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
			assertThat(process.isAlive()).as("build %s is alive (see %s)", buildId, log).isTrue();
			http.get().uri("/durable/builds").retrieve().toBodilessEntity();
			return true;
		});
		return new Node(process, http);
	}

	private static void start(Node node, String type, String workflowId) {
		node.http.post()
			.uri("/durable/workflows")
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("type", type, "workflowId", workflowId, "input", workflowId))
			.retrieve()
			.toBodilessEntity();
	}

	private static void signal(Node node, String workflowId) {
		node.http.post().uri("/durable/workflows/{id}/signals/go", workflowId).retrieve().toBodilessEntity();
	}

	private static Map<String, Object> describe(Node node, String workflowId) {
		return node.http.get().uri("/durable/workflows/{id}", workflowId).retrieve().body(JSON);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> build(Node node, String workflowId) {
		return (Map<String, Object>) describe(node, workflowId).get("build");
	}

	/**
	 * Until the run's code waits for its signal: its first step done, no activity left.
	 */
	private static void awaitWaitingForSignal(Node node, String workflowId) {
		Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> {
			Map<String, Object> run = describe(node, workflowId);
			return ((Number) run.get("workflowTasks")).intValue() >= 2
					&& ((List<?>) run.get("pendingActivities")).isEmpty();
		});
	}

	private int probes;

	/**
	 * Until a run started through the node goes where the ramp of 2.0 at 40% over current
	 * 1.0 sends it: a probe run with a workflow id under the percentage ({@code ramped})
	 * or above it, terminated once seen.
	 */
	private void awaitRouting(Node node, boolean ramped) {
		Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
			String id;
			do {
				id = "probe-" + this.probes++;
			}
			while ((Math.floorMod(id.hashCode(), 100) < 40) != ramped);
			start(node, "order", id);
			String buildId = (String) build(node, id).get("buildId");
			node.http.post()
				.uri("/durable/workflows/{id}/terminate", id)
				.contentType(MediaType.APPLICATION_JSON)
				.body(Map.of("reason", "probe"))
				.retrieve()
				.toBodilessEntity();
			return buildId.equals(ramped ? "2.0" : "1.0");
		});
	}

	private static Object result(Node node, String workflowId) {
		Map<String, Object> answer = node.http.get()
			.uri("/durable/workflows/{id}/result?wait=PT30S", workflowId)
			.retrieve()
			.body(JSON);
		assertThat(answer).containsEntry("status", "COMPLETED");
		return answer.get("result");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> routing(Node node) {
		return (Map<String, Object>) node.http.get().uri("/durable/builds").retrieve().body(JSON).get("routing");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> buildStatus(Node node, String buildId) {
		List<Map<String, Object>> builds = (List<Map<String, Object>>) node.http.get()
			.uri("/durable/builds")
			.retrieve()
			.body(JSON)
			.get("builds");
		return builds.stream().filter((build) -> buildId.equals(build.get("buildId"))).findFirst().orElseThrow();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
