package dev.durable.workflow.taskqueue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.crash.TaskQueueWorker;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two real JVMs on one database: this one runs the workflows (and no activity of the task
 * queue), a worker-only JVM runs the task queue's activities. The worker is killed with
 * SIGKILL while its attempts run; a second worker JVM retries exactly those attempts, and
 * every workflow completes once. The workers' output is in
 * {@code target/task-queue-it/<schema>/worker-N.log}.
 */
class TaskQueueWorkerIT {

	private static final int WORKFLOWS = 12;

	private final JdbcTemplate jdbc = TestDatabase.jdbc();

	private final String schema = TestDatabase.newSchema();

	/** Runs the render workflow; the activity's interface is all this JVM knows of it. */
	@Workflow("it-render")
	public static class RenderWorkflow {

		private final TaskQueueWorker.Renders renders;

		public RenderWorkflow(TaskQueueWorker.Renders renders) {
			this.renders = renders;
		}

		@WorkflowRun
		public String run(String scene) {
			return this.renders.render(scene);
		}

	}

	@Test
	@Timeout(value = 3, unit = TimeUnit.MINUTES)
	void aKilledWorkersAttemptsAreRetriedOnAnotherWorker() throws Exception {
		String url = TestDatabase.jdbcUrl();
		Path dir = Path.of(System.getProperty("basedir", "."), "target", "task-queue-it", this.schema);
		Files.createDirectories(dir);
		TaskQueueWorker.createLogTable(TestDatabase.dataSource(), this.schema);
		String log = TaskQueueWorker.logTable(this.schema);
		Process first = null;
		Process second = null;
		try (WorkflowEngine workflows = WorkflowEngine.builder()
			.dataSource(TestDatabase.dataSource())
			.schema(this.schema)
			.register(RenderWorkflow.class)
			.pollInterval(Duration.ofMillis(200))
			.heartbeatInterval(Duration.ofMillis(300))
			.deadAfter(Duration.ofSeconds(2))
			.build()
			.start()) {
			assertThat(workflows.settings().activityTaskQueues()).isEmpty();
			List<WorkflowHandle<String>> handles = new ArrayList<>();
			for (int i = 0; i < WORKFLOWS; i++) {
				handles
					.add(workflows.client().start(RenderWorkflow::run, "scene-" + i, StartOptions.withId("it-" + i)));
			}
			first = launch(url, dir.resolve("worker-1.log"));
			long firstPid = first.pid();
			// the first worker runs 4 attempts at once: kill it while they run (1.5 s
			// each)
			await().atMost(Duration.ofSeconds(60))
				.pollInterval(Duration.ofMillis(20))
				.until(() -> count("SELECT count(*) FROM " + log + " WHERE pid = " + firstPid) == 4);
			first.destroyForcibly().waitFor();
			assertThat(first.exitValue()).isEqualTo(128 + 9);
			List<String> killed = this.jdbc.queryForList("SELECT workflow_id FROM " + log, String.class);
			second = launch(url, dir.resolve("worker-2.log"));
			long secondPid = second.pid();
			for (WorkflowHandle<String> handle : handles) {
				assertThat(handle.result(Duration.ofSeconds(90)))
					.startsWith(handle.workflowId().replace("it-", "scene-") + "@");
			}
			// every workflow completed once; the killed attempts ran again on the second
			// worker, as attempt 2
			assertThat(count("SELECT count(*) FROM " + this.schema + ".workflow_run WHERE status = 'COMPLETED'"))
				.isEqualTo(WORKFLOWS);
			for (String workflowId : killed) {
				List<Map<String, Object>> runs = this.jdbc
					.queryForList("SELECT attempt, pid FROM " + log + " WHERE workflow_id = ? ORDER BY id", workflowId);
				assertThat(runs).as("executions of %s", workflowId).hasSize(2);
				assertThat(((Number) runs.get(1).get("pid")).longValue()).isEqualTo(secondPid);
				assertThat(((Number) runs.get(1).get("attempt")).intValue()).isEqualTo(2);
			}
			assertThat(count("SELECT count(*) FROM " + log)).isEqualTo(WORKFLOWS + killed.size());
			assertThat(count("SELECT count(*) FROM " + this.schema + ".activity")).isZero();
		}
		finally {
			if (first != null) {
				first.destroyForcibly();
			}
			if (second != null) {
				second.destroyForcibly();
			}
		}
	}

	private int count(String sql) {
		return this.jdbc.queryForObject(sql, Integer.class);
	}

	private Process launch(String url, Path output) throws IOException {
		String java = ProcessHandle.current()
			.info()
			.command()
			.orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		List<String> command = List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), TaskQueueWorker.class.getName(), url, this.schema,
				Long.toString(ProcessHandle.current().pid()));
		Files.writeString(output, "", StandardCharsets.UTF_8);
		return new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.to(output.toFile()))
			.start();
	}

}
