package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.ops.OpsConfiguration;
import dev.durable.workflow.autoconfigure.ops.QuickWorkflow;
import dev.durable.workflow.autoconfigure.ops.WaitingWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Meters and observations of a run with a retried activity, with Boot's metrics and
 * observation setup.
 */
class WorkflowMetricsTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class))
		.withConfiguration(DurableWorkflowOpsAutoConfigurationTest.ALL)
		.withUserConfiguration(OpsConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withBean(Collecting.class, Collecting::new)
		.withPropertyValues("durable.workflow.schema=" + DurableWorkflowOpsAutoConfigurationTest.newSchema(),
				"durable.workflow.worker.poll-interval=100ms");

	/** Collects the observations that stop. */
	static final class Collecting implements ObservationHandler<Observation.Context> {

		final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context.getName().startsWith("durable.workflow");
		}

		@Override
		public void onStop(Observation.Context context) {
			this.stopped.add(context);
		}

		List<Observation.Context> named(String name) {
			return this.stopped.stream().filter((context) -> context.getName().equals(name)).toList();
		}

	}

	@Test
	void recordsRunsTasksActivitiesRetriesAndObservations() {
		this.runner.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			Collecting observations = context.getBean(Collecting.class);
			WorkflowClient client = context.getBean(WorkflowClient.class);
			String result = client.start(QuickWorkflow::run, "a", StartOptions.withId("metrics-1"))
				.result(Duration.ofSeconds(30));
			assertThat(result).isEqualTo("tidy a, flaky a");
			// the result is visible once the closing task committed; its end is reported
			// right after
			await().until(() -> registry.find("durable.workflow.runs.completed").counter() != null);

			assertThat(registry.get("durable.workflow.runs.started").tag("type", "ops-quick").counter().count())
				.isEqualTo(1);
			assertThat(registry.get("durable.workflow.runs.completed")
				.tags("type", "ops-quick", "outcome", "completed")
				.counter()
				.count()).isEqualTo(1);
			await().until(() -> registry.get("durable.workflow.task.latency")
				.tags("type", "ops-quick", "outcome", "success")
				.timer()
				.count() >= 3);
			assertThat(registry.get("durable.workflow.activity.duration")
				.tags("type", "flaky", "outcome", "failed")
				.timer()
				.count()).isEqualTo(1);
			assertThat(registry.get("durable.workflow.activity.duration")
				.tags("type", "flaky", "outcome", "completed")
				.timer()
				.count()).isEqualTo(1);
			assertThat(registry.get("durable.workflow.activity.duration")
				.tags("type", "tidy", "outcome", "completed")
				.timer()
				.count()).isEqualTo(1);
			assertThat(registry.get("durable.workflow.activity.retries").tag("type", "flaky").counter().count())
				.isEqualTo(1);
			assertThat(registry.get("durable.workflow.activity.schedule.to.start").tag("type", "flaky").timer().count())
				.isEqualTo(2);
			assertThat(registry.get("durable.workflow.cache.size").gauge().value()).isGreaterThanOrEqualTo(0);

			// observations: the handler sees them, and Boot's meter handler turns them
			// into timers
			assertThat(observations.named("durable.workflow.task")).isNotEmpty().allSatisfy((task) -> {
				assertThat(task.getLowCardinalityKeyValues()).contains(KeyValue.of("type", "ops-quick"));
				assertThat(task.getHighCardinalityKeyValues()).contains(KeyValue.of("workflow.id", "metrics-1"));
			});
			assertThat(observations.named("durable.workflow.activity")).hasSize(3).anySatisfy((activity) -> {
				assertThat(activity.getLowCardinalityKeyValues()).contains(KeyValue.of("type", "flaky"));
				assertThat(activity.getHighCardinalityKeyValues()).contains(KeyValue.of("attempt", "1"));
				assertThat(activity.getError()).hasMessage("first attempt fails");
			});
			assertThat(registry.get("durable.workflow.task").tag("type", "ops-quick").timer().count()).isPositive();
			assertThat(registry.get("durable.workflow.activity").tag("type", "tidy").timer().count()).isEqualTo(1);
		});
	}

	@Test
	void pausedRunsAreAGaugeAHealthDetailAndInTheWorkflowsEndpoint() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=workflows,health").run((context) -> {
			WorkflowClient client = context.getBean(WorkflowClient.class);
			WorkflowHandle<String> waiting = client.start(WaitingWorkflow::run, StartOptions.withId("metrics-paused"));
			await().until(() -> waiting.describe().workflowTasks() >= 1);
			waiting.pause("maintenance");

			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get("durable.workflow.runs.paused").gauge().value()).isEqualTo(1.0);
			assertThat(context.getBean(WorkflowEngineHealthIndicator.class).health().getDetails())
				.containsEntry("pausedRuns", 1L);
			assertThat(context.getBean(WorkflowsEndpoint.class).workflows().backlog().paused()).isEqualTo(1);
		});
	}

}
