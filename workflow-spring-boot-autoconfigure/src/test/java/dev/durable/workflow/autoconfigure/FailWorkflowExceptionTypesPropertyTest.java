package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.ConfigurationPropertiesBindException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.failtypes.FailTypesConfiguration;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.client.WorkflowHandle;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code durable.workflow.worker.fail-workflow-exception-types} reaches the engine: a
 * listed exception thrown by workflow code of any type fails the run instead of retrying
 * the task.
 */
class FailWorkflowExceptionTypesPropertyTest {

	private static final AtomicInteger SCHEMAS = new AtomicInteger();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
		.withUserConfiguration(FailTypesConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues(
				"durable.workflow.schema=failtypes" + SCHEMAS.incrementAndGet() + "_"
						+ Long.toHexString(System.nanoTime() & 0xFFFFFF),
				"durable.workflow.worker.poll-interval=100ms");

	@Test
	void aListedExceptionFailsTheRun() {
		this.runner
			.withPropertyValues(
					"durable.workflow.worker.fail-workflow-exception-types=java.util.NoSuchElementException")
			.run((context) -> {
				assertThat(context.getBean(WorkflowEngine.class).settings().failWorkflowExceptionTypes())
					.containsExactly(NoSuchElementException.class);
				WorkflowHandle<Object> handle = context.getBean(WorkflowClient.class)
					.start("stock-check", "bolts", StartOptions.DEFAULT);
				assertThatThrownBy(() -> handle.result(Duration.ofSeconds(30)))
					.isInstanceOf(WorkflowFailedException.class)
					.hasStackTraceContaining("no stock of bolts");
			});
	}

	@Test
	void withoutThePropertyTheTaskFailsAndTheRunStaysOpen() {
		this.runner.run((context) -> {
			assertThat(context.getBean(WorkflowEngine.class).settings().failWorkflowExceptionTypes()).isEmpty();
			WorkflowHandle<Object> handle = context.getBean(WorkflowClient.class)
				.start("stock-check", "bolts", StartOptions.DEFAULT);
			assertThatThrownBy(() -> handle.result(Duration.ofSeconds(2)))
				.isInstanceOf(WorkflowHandle.WorkflowTimeoutException.class);
		});
	}

	@Test
	void anUnknownClassNameFailsTheStartupNamingTheProperty() {
		this.runner
			.withPropertyValues("durable.workflow.worker.fail-workflow-exception-types=com.example.NoSuchException")
			.run((context) -> assertThat(context).getFailure()
				.hasCauseInstanceOf(ConfigurationPropertiesBindException.class)
				.hasStackTraceContaining("durable.workflow.worker"));
		this.runner.withPropertyValues("durable.workflow.worker.fail-workflow-exception-types=java.lang.String")
			.run((context) -> assertThat(context).getFailure()
				.hasCauseInstanceOf(ConfigurationPropertiesBindException.class)
				.rootCause()
				.hasMessage("fail-workflow-exception-types must name exception types; java.lang.String is not one"));
	}

}
