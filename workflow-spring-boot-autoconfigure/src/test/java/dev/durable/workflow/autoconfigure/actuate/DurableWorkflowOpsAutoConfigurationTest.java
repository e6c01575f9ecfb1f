package dev.durable.workflow.autoconfigure.actuate;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.WorkflowEngineCustomizer;
import dev.durable.workflow.autoconfigure.ops.OpsConfiguration;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The actuator endpoint, health contributor, meters and observations are auto-configured
 * when their libraries are present, absent otherwise, and give way to the application's
 * beans.
 */
class DurableWorkflowOpsAutoConfigurationTest {

	private static final AtomicInteger SCHEMAS = new AtomicInteger();

	static final AutoConfigurations ALL = AutoConfigurations.of(DurableWorkflowAutoConfiguration.class,
			DurableWorkflowEndpointAutoConfiguration.class, DurableWorkflowHealthAutoConfiguration.class,
			DurableWorkflowMetricsAutoConfiguration.class);

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(ALL)
		.withUserConfiguration(OpsConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withBean(ObservationRegistry.class, ObservationRegistry::create)
		.withPropertyValues("durable.workflow.schema=" + newSchema(), "durable.workflow.worker.poll-interval=100ms",
				"management.endpoints.web.exposure.include=workflows,health");

	static String newSchema() {
		return "ops" + SCHEMAS.incrementAndGet() + "_" + Long.toHexString(System.nanoTime() & 0xFFFFFF);
	}

	@Test
	void providesTheEndpointTheHealthIndicatorTheMetricsAndTheObservations() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(WorkflowsEndpoint.class)
				.hasSingleBean(WorkflowEngineHealthIndicator.class)
				.hasBean("durableWorkflowHealthIndicator")
				.hasSingleBean(WorkflowMetricsListener.class)
				.hasSingleBean(WorkflowObservationInterceptor.class)
				.hasBean("durableWorkflowCacheMeterBinder")
				.hasSingleBean(QueueMetrics.class);
			assertThat(context.getBeansOfType(WorkflowEngineCustomizer.class))
				.containsOnlyKeys("durableWorkflowMetricsCustomizer", "durableWorkflowObservationCustomizer");
		});
	}

	@Test
	void theHealthContributorIsNamedDurableWorkflow() {
		this.runner.withConfiguration(AutoConfigurations.of(HealthContributorRegistryAutoConfiguration.class))
			.run((context) -> assertThat(
					context.getBean(HealthContributorRegistry.class).getContributor("durableWorkflow"))
				.isInstanceOf(WorkflowEngineHealthIndicator.class));
	}

	@Test
	void theEndpointNeedsToBeExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(context).doesNotHaveBean(WorkflowsEndpoint.class)
				.hasSingleBean(WorkflowEngineHealthIndicator.class));
	}

	@Test
	void theHealthIndicatorCanBeTurnedOff() {
		this.runner.withPropertyValues("management.health.durable-workflow.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(WorkflowEngineHealthIndicator.class));
	}

	@Test
	void withoutActuatorAndMicrometerTheEngineStillStarts() {
		new ApplicationContextRunner().withConfiguration(ALL)
			.withUserConfiguration(OpsConfiguration.class)
			.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
			.withPropertyValues("durable.workflow.schema=" + newSchema())
			.withClassLoader(new FilteredClassLoader(Endpoint.class, HealthIndicator.class, MeterRegistry.class,
					ObservationRegistry.class))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(WorkflowEngine.class)
					.doesNotHaveBean(WorkflowsEndpoint.class)
					.doesNotHaveBean(WorkflowEngineHealthIndicator.class)
					.doesNotHaveBean(WorkflowMetricsListener.class)
					.doesNotHaveBean(WorkflowObservationInterceptor.class)
					.doesNotHaveBean(WorkflowEngineCustomizer.class);
				assertThat(context.getBean(WorkflowEngine.class).isRunning()).isTrue();
			});
	}

	@Test
	void withoutRegistryBeansThereAreNoListeners() {
		new ApplicationContextRunner().withConfiguration(ALL)
			.withUserConfiguration(OpsConfiguration.class)
			.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
			.withPropertyValues("durable.workflow.schema=" + newSchema())
			.run((context) -> assertThat(context).hasSingleBean(WorkflowEngine.class)
				.doesNotHaveBean(WorkflowMetricsListener.class)
				.doesNotHaveBean(WorkflowObservationInterceptor.class));
	}

	@Test
	void backsOffFromTheApplicationsBeans() {
		WorkflowMetricsListener ownMetrics = new WorkflowMetricsListener(new SimpleMeterRegistry());
		this.runner
			.withBean("ownEndpoint", WorkflowsEndpoint.class, () -> new WorkflowsEndpoint(null, Duration.ofMinutes(1)))
			.withBean("durableWorkflowHealthIndicator", HealthIndicator.class,
					() -> () -> org.springframework.boot.health.contributor.Health.up().build())
			.withBean("ownMetrics", WorkflowMetricsListener.class, () -> ownMetrics)
			.withBean("ownObservations", WorkflowObservationInterceptor.class,
					() -> new WorkflowObservationInterceptor(ObservationRegistry.NOOP))
			.run((context) -> {
				assertThat(context).hasSingleBean(WorkflowsEndpoint.class)
					.hasBean("ownEndpoint")
					.doesNotHaveBean(WorkflowEngineHealthIndicator.class)
					.hasSingleBean(WorkflowMetricsListener.class)
					.hasSingleBean(WorkflowObservationInterceptor.class);
				assertThat(context.getBean(WorkflowMetricsListener.class)).isSameAs(ownMetrics);
			});
	}

}
