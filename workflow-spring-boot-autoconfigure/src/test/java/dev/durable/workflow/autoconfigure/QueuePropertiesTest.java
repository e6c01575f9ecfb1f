package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.greeting.GreetingConfiguration;
import dev.durable.workflow.engine.EngineSettings;
import dev.durable.workflow.engine.ExcessStrategy;
import dev.durable.workflow.engine.QueueDefinition;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code durable.workflow.queues.<name>.*} and the worker's roles
 * ({@code durable.workflow.worker.workflows}, {@code .activity-task-queues}) reach the
 * engine builder; invalid values fail the startup with a message that names the property.
 */
class QueuePropertiesTest {

	private static final AtomicInteger SCHEMAS = new AtomicInteger();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
		.withUserConfiguration(GreetingConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues(
				"durable.workflow.schema=queueprops" + SCHEMAS.incrementAndGet() + "_"
						+ Long.toHexString(System.nanoTime() & 0xFFFFFF),
				"durable.workflow.worker.poll-interval=100ms");

	@Test
	void declaresTheQueuesAndTheActivityTaskQueues() {
		this.runner
			.withPropertyValues("durable.workflow.queues.reports.concurrency=2",
					"durable.workflow.queues.reports.per-node-concurrency=1",
					"durable.workflow.queues.reports.rate-limit=10", "durable.workflow.queues.reports.rate-period=30s",
					"durable.workflow.queues.reports.partition-concurrency=1",
					"durable.workflow.queues.gpu.concurrency=4", "durable.workflow.queues[tenant.a-b].rate-limit=5",
					"durable.workflow.worker.activity-task-queues=gpu,cpu")
			.run((context) -> {
				EngineSettings settings = context.getBean(WorkflowEngine.class).settings();
				assertThat(settings.queues()).containsExactly(
						new QueueDefinition("reports", 2, 1, 10, Duration.ofSeconds(30), 1),
						new QueueDefinition("gpu", 4, 0, 0, Duration.ofSeconds(1), 0),
						new QueueDefinition("tenant.a-b", 0, 0, 5, Duration.ofSeconds(1), 0));
				assertThat(settings.activityTaskQueues()).containsExactlyInAnyOrder("gpu", "cpu");
				assertThat(settings.runsWorkflows()).isTrue();
			});
	}

	@Test
	void declaresFairnessExcessStrategiesAndTheAdmissionTimeout() {
		this.runner.withPropertyValues("durable.workflow.queues.deploys.partition-concurrency=1",
				"durable.workflow.queues.deploys.fair=true", "durable.workflow.queues.deploys.partition-weights.gold=3",
				"durable.workflow.queues.deploys.partition-excess=cancel-oldest-running",
				"durable.workflow.queues.deploys.rate-limit=5", "durable.workflow.queues.deploys.rate-excess=drop",
				"durable.workflow.queues.deploys.admission-timeout=5m")
			.run((context) -> {
				EngineSettings settings = context.getBean(WorkflowEngine.class).settings();
				assertThat(settings.queues()).containsExactly(QueueDefinition.named("deploys")
					.withRateLimit(5, Duration.ofSeconds(1))
					.withPartitionConcurrency(1)
					.withPartitionWeight("gold", 3)
					.withPartitionExcess(ExcessStrategy.CANCEL_OLDEST_RUNNING)
					.withRateExcess(ExcessStrategy.DROP)
					.withAdmissionTimeout(Duration.ofMinutes(5)));
			});
		this.runner.withPropertyValues("durable.workflow.queues.deploys.partition-excess=drop")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("durable.workflow.queues.deploys: The partition excess strategy DROP of queue"
						+ " 'deploys' needs a partition concurrency"));
	}

	@Test
	void byDefaultNoQueueAndNoActivityTaskQueueAndTheWorkerRunsWorkflows() {
		this.runner.run((context) -> {
			EngineSettings settings = context.getBean(WorkflowEngine.class).settings();
			assertThat(settings.queues()).isEmpty();
			assertThat(settings.activityTaskQueues()).isEmpty();
			assertThat(settings.runsWorkflows()).isTrue();
			assertThat(context.getBean(DurableWorkflowProperties.class).getWorker().isWorkflows()).isTrue();
		});
	}

	@Test
	void aNegativeLimitFailsTheStartupNamingTheProperty() {
		this.runner.withPropertyValues("durable.workflow.queues.reports.concurrency=-1")
			.run((context) -> assertThat(context).getFailure()
				.hasCauseInstanceOf(ConfigurationPropertiesBindException.class)
				.hasStackTraceContaining("Failed to bind properties under 'durable.workflow.queues.reports'")
				.rootCause()
				.hasMessage("concurrency must not be negative (0 means no limit), got -1"));
		this.runner.withPropertyValues("durable.workflow.queues.reports.partition-concurrency=-3")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'durable.workflow.queues.reports'")
				.rootCause()
				.hasMessageStartingWith("partition-concurrency must not be negative"));
	}

	@Test
	void aRatePeriodThatIsNotPositiveFailsTheStartup() {
		this.runner
			.withPropertyValues("durable.workflow.queues.reports.rate-limit=5",
					"durable.workflow.queues.reports.rate-period=0s")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'durable.workflow.queues.reports'")
				.rootCause()
				.hasMessage("rate-period must be positive, got PT0S"));
	}

	@Test
	void anInvalidQueueNameFailsTheStartup() {
		String name = "q".repeat(101);
		this.runner.withPropertyValues("durable.workflow.queues." + name + ".concurrency=1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("durable.workflow.queues." + name)
				.hasMessageContaining("is not a queue name"));
	}

	@Test
	void aBlankActivityTaskQueueFailsTheStartup() {
		this.runner
			.withPropertyValues("durable.workflow.worker.activity-task-queues[0]=gpu",
					"durable.workflow.worker.activity-task-queues[1]= ")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("Failed to bind properties under 'durable.workflow.worker'")
				.rootCause()
				.hasMessageStartingWith("activity-task-queues: a task queue name must not be blank"));
	}

}
