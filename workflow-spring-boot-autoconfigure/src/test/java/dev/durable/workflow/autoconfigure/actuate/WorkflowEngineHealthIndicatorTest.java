package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.ops.BrokenWorkflow;
import dev.durable.workflow.autoconfigure.ops.OpsConfiguration;
import dev.durable.workflow.autoconfigure.ops.QuickWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The {@code durableWorkflow} health contributor on a real database. */
class WorkflowEngineHealthIndicatorTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(DurableWorkflowOpsAutoConfigurationTest.ALL)
		.withUserConfiguration(OpsConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues("durable.workflow.schema=" + DurableWorkflowOpsAutoConfigurationTest.newSchema(),
				"durable.workflow.worker.poll-interval=100ms");

	@Test
	void upWhenTheEngineRunsWithinTheThresholdsAndDownOnceItStops() {
		this.runner.run((context) -> {
			WorkflowEngineHealthIndicator indicator = context.getBean(WorkflowEngineHealthIndicator.class);
			WorkflowClient client = context.getBean(WorkflowClient.class);
			client.start(QuickWorkflow::run, "a", StartOptions.withId("quick-1")).result(Duration.ofSeconds(30));
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).containsEntry("backlog", 0L)
				.containsEntry("stuckRuns", 0L)
				.containsEntry("failingRuns", 0L)
				.containsKeys("oldestWaiting", "cachedRuns", "nodeId");

			context.getBean(WorkflowEngine.class).shutdown();
			Health stopped = indicator.health();
			assertThat(stopped.getStatus()).isEqualTo(Status.DOWN);
			assertThat(stopped.getDetails()).containsEntry("reason", "the workflow engine is not running");
		});
	}

	@Test
	void outOfServiceWhenTheBacklogExceedsItsThreshold() {
		this.runner.withPropertyValues("durable.workflow.health.max-backlog=0").run((context) -> {
			WorkflowEngineHealthIndicator indicator = context.getBean(WorkflowEngineHealthIndicator.class);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			// a run on a queue no node serves waits in the backlog
			context.getBean(WorkflowClient.class)
				.start(QuickWorkflow::run, "b",
						StartOptions.builder().workflowId("elsewhere-1").taskQueue("elsewhere").build());
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
			assertThat(health.getDetails()).containsEntry("backlog", 1L);
			assertThat((String) health.getDetails().get("reason")).contains("backlog of 1 runnable runs exceeds 0");
		});
	}

	@Test
	void outOfServiceWhenStuckRunsExceedTheirThreshold() {
		this.runner
			.withPropertyValues("durable.workflow.health.max-stuck-runs=0", "durable.workflow.health.stuck-after=0s")
			.run((context) -> {
				WorkflowEngineHealthIndicator indicator = context.getBean(WorkflowEngineHealthIndicator.class);
				context.getBean(WorkflowClient.class).start(BrokenWorkflow::run, StartOptions.withId("broken-1"));
				await().until(() -> indicator.health().getStatus().equals(Status.OUT_OF_SERVICE));
				Health health = indicator.health();
				assertThat(health.getDetails()).containsEntry("stuckRuns", 1L).containsEntry("failingRuns", 1L);
				assertThat((String) health.getDetails().get("reason"))
					.contains("1 runs whose workflow task has failed");
			});
	}

}
