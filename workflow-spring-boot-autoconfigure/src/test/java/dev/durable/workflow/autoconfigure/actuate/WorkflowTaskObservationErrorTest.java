package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.ops.OpsConfiguration;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A workflow task that fails (its code throws) ends its {@code durable.workflow.task}
 * observation with the failure, so tracing shows the error and the observation's timer
 * counts it with {@code error} set; a task that succeeds ends without one.
 */
class WorkflowTaskObservationErrorTest {

	/** The observations that ended, each as its name and its error's type. */
	private final List<String> ended = new CopyOnWriteArrayList<>();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(DurableWorkflowOpsAutoConfigurationTest.ALL)
		.withUserConfiguration(OpsConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withBean(ObservationRegistry.class, this::registry)
		.withPropertyValues("durable.workflow.schema=" + DurableWorkflowOpsAutoConfigurationTest.newSchema(),
				"durable.workflow.worker.poll-interval=100ms");

	private ObservationRegistry registry() {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new ObservationHandler<>() {
			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStop(Observation.Context context) {
				WorkflowTaskObservationErrorTest.this.ended.add(context.getName() + " "
						+ ((context.getError() != null) ? context.getError().getClass().getSimpleName() : "none"));
			}
		});
		return registry;
	}

	@Test
	void aFailingTaskEndsItsObservationWithTheFailure() {
		this.runner.run((context) -> {
			WorkflowClient client = context.getBean(WorkflowClient.class);
			client.start("ops-broken", null, StartOptions.withId("broken-observed"));
			client.start("ops-quick", "x", StartOptions.withId("quick-observed"));
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> assertThat(this.ended).contains("durable.workflow.task IllegalStateException",
						"durable.workflow.task none"));
		});
	}

}
