package dev.durable.workflow.autoconfigure.shutdown;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.Workflow;
import dev.durable.workflow.WorkflowRun;
import dev.durable.workflow.activity.Activity;
import dev.durable.workflow.activity.ActivityContext;
import dev.durable.workflow.activity.ActivityMethod;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;

/**
 * The application {@link GracefulShutdownIT} runs in a JVM of its own and stops with
 * SIGTERM: the starter on its embedded database, one workflow of two steps, each
 * recording its executions in a table. Started with
 * {@code --shutdown-it.start=<workflow id>} it starts that workflow.
 */
@SpringBootApplication
public class ShutdownApplication {

	/**
	 * One row per activity execution: which step, which JVM, when it started and ended.
	 */
	static final String TABLE = "shutdown_it_execution";

	public static void main(String[] args) throws InterruptedException {
		SpringApplication.run(ShutdownApplication.class, args);
		// no web server keeps the JVM alive: it ends with SIGTERM and the shutdown hooks
		Thread.currentThread().join();
	}

	@Bean
	ApplicationRunner startWorkflow(WorkflowClient client, JdbcTemplate jdbc,
			@Value("${shutdown-it.start:}") String workflowId) {
		return (args) -> {
			jdbc.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id bigserial PRIMARY KEY, step text NOT NULL,"
					+ " attempt int NOT NULL, pid bigint NOT NULL, started_at timestamptz NOT NULL DEFAULT"
					+ " clock_timestamp(), ended_at timestamptz)");
			if (!workflowId.isEmpty()) {
				client.start(TwoSteps::run, "go", StartOptions.withId(workflowId));
			}
		};
	}

	/**
	 * The steps: each records its execution; the first takes
	 * {@code shutdown-it.first-millis}.
	 */
	@Activity
	public static class Steps {

		private final JdbcTemplate jdbc;

		private final long firstMillis;

		public Steps(JdbcTemplate jdbc, @Value("${shutdown-it.first-millis:4000}") long firstMillis) {
			this.jdbc = jdbc;
			this.firstMillis = firstMillis;
		}

		@ActivityMethod(initialInterval = "PT1S")
		public String first(String input) {
			return record("first", input, this.firstMillis);
		}

		@ActivityMethod(initialInterval = "PT1S")
		public String second(String input) {
			return record("second", input, 200);
		}

		private String record(String step, String input, long millis) {
			Long id = this.jdbc.queryForObject(
					"INSERT INTO " + TABLE + " (step, attempt, pid) VALUES (?, ?, ?)" + " RETURNING id", Long.class,
					step, ActivityContext.current().info().attempt(), ProcessHandle.current().pid());
			try {
				Thread.sleep(millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted", ex);
			}
			this.jdbc.update("UPDATE " + TABLE + " SET ended_at = clock_timestamp() WHERE id = ?", id);
			return input + "-" + step;
		}

	}

	/** Two steps in a row. */
	@Workflow("shutdown-it")
	public static class TwoSteps {

		private final Steps steps;

		public TwoSteps(Steps steps) {
			this.steps = steps;
		}

		@WorkflowRun
		public String run(String input) {
			return this.steps.second(this.steps.first(input));
		}

	}

}
