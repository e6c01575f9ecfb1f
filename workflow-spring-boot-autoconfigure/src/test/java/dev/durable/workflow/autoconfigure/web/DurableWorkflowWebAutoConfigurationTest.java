package dev.durable.workflow.autoconfigure.web;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.servlet.DispatcherServlet;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.greeting.GreetingConfiguration;
import dev.durable.workflow.test.EmbeddedPostgresSupport;
import dev.durable.workflow.web.ActivityCompletionController;
import dev.durable.workflow.web.DashboardController;
import dev.durable.workflow.web.QueueRestController;
import dev.durable.workflow.web.ScheduleRestController;
import dev.durable.workflow.web.WebAccess;
import dev.durable.workflow.web.WorkflowMessageController;
import dev.durable.workflow.web.WorkflowProblems;
import dev.durable.workflow.web.WorkflowRestController;

import static org.assertj.core.api.Assertions.assertThat;

/** When the generated REST endpoints are set up, and when not. */
class DurableWorkflowWebAutoConfigurationTest {

	private static final AutoConfigurations CONFIGURATIONS = AutoConfigurations
		.of(DurableWorkflowAutoConfiguration.class, DurableWorkflowWebAutoConfiguration.class);

	private final WebApplicationContextRunner web = new WebApplicationContextRunner().withConfiguration(CONFIGURATIONS)
		.withUserConfiguration(GreetingConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues("durable.workflow.schema=web_conditions", "durable.workflow.worker.enabled=false");

	@Test
	void aServletApplicationGetsTheControllers() {
		this.web.run((context) -> assertThat(context).hasSingleBean(WorkflowRestController.class)
			.hasSingleBean(WorkflowMessageController.class)
			.hasSingleBean(ScheduleRestController.class)
			.hasSingleBean(ActivityCompletionController.class)
			.hasSingleBean(QueueRestController.class)
			.hasSingleBean(DashboardController.class)
			.hasSingleBean(WorkflowProblems.class));
	}

	@Test
	void theBasePathAndReadOnlyModeComeFromTheProperties() {
		this.web.withPropertyValues("durable.workflow.web.base-path=/ops/wf", "durable.workflow.web.read-only=true")
			.run((context) -> {
				WebAccess access = context.getBean(WebAccess.class);
				assertThat(access.basePath()).isEqualTo("/ops/wf");
				org.assertj.core.api.Assertions.assertThatThrownBy(access::checkWritable)
					.isInstanceOf(WebAccess.ReadOnlyException.class);
			});
	}

	@Test
	void theDashboardCanBeTurnedOffAlone() {
		this.web.withPropertyValues("durable.workflow.dashboard.enabled=false")
			.run((context) -> assertThat(context).hasSingleBean(WorkflowRestController.class)
				.doesNotHaveBean(DashboardController.class));
	}

	@Test
	void turnedOffByProperty() {
		this.web.withPropertyValues("durable.workflow.web.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(WorkflowRestController.class)
				.doesNotHaveBean(ActivityCompletionController.class)
				.doesNotHaveBean(QueueRestController.class));
	}

	@Test
	void notInANonWebApplication() {
		new ApplicationContextRunner().withConfiguration(CONFIGURATIONS)
			.withUserConfiguration(GreetingConfiguration.class)
			.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
			.withPropertyValues("durable.workflow.schema=web_conditions", "durable.workflow.worker.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(WorkflowRestController.class));
	}

	@Test
	void notWithoutSpringMvc() {
		this.web.withClassLoader(new FilteredClassLoader(DispatcherServlet.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(WorkflowRestController.class));
	}

	@Test
	void notWithoutAnEngine() {
		new WebApplicationContextRunner().withConfiguration(CONFIGURATIONS)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(WorkflowRestController.class));
	}

}
