package dev.durable.workflow.autoconfigure.openapi;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.greeting.GreetingConfiguration;
import dev.durable.workflow.autoconfigure.web.DurableWorkflowWebAutoConfiguration;
import dev.durable.workflow.test.EmbeddedPostgresSupport;
import dev.durable.workflow.web.WorkflowRestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the OpenAPI description is contributed, and that the endpoints work without
 * springdoc.
 */
class DurableOpenApiAutoConfigurationTest {

	private final WebApplicationContextRunner web = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class,
				DurableWorkflowWebAutoConfiguration.class, DurableOpenApiAutoConfiguration.class))
		.withUserConfiguration(GreetingConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues("durable.workflow.schema=openapi_conditions", "durable.workflow.worker.enabled=false");

	@Test
	void withSpringdocTheEndpointsAreDescribed() {
		this.web.run((context) -> assertThat(context).hasBean("durableWorkflowOpenApiCustomizer"));
	}

	@Test
	void withoutSpringdocTheEndpointsWorkUndescribed() {
		this.web.withClassLoader(new FilteredClassLoader("org.springdoc", "io.swagger"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(WorkflowRestController.class)
				.doesNotHaveBean("durableWorkflowOpenApiCustomizer"));
	}

	@Test
	void notWhenTheEndpointsAreOff() {
		this.web.withPropertyValues("durable.workflow.web.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("durableWorkflowOpenApiCustomizer"));
	}

}
