package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.Properties;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.failtypes.FailTypesConfiguration;
import dev.durable.workflow.engine.EngineStats;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's build id: {@code durable.workflow.node.build-id}, else the application's
 * version from its build info, else none; recorded with the node where the workflows
 * endpoint and the dashboard read it.
 */
class BuildIdPropertyTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
		.withUserConfiguration(FailTypesConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues("durable.workflow.schema=" + EmbeddedPostgresSupport.newSchemaName());

	@Test
	void thePropertyNamesTheBuild() {
		this.runner.withPropertyValues("durable.workflow.node.build-id=2026.12.1")
			.withBean(BuildProperties.class, () -> build("1.4.2"))
			.run((context) -> assertThat(recordedBuildId(context)).isEqualTo("2026.12.1"));
	}

	@Test
	void withoutThePropertyTheBuildInfosVersionNamesIt() {
		this.runner.withBean(BuildProperties.class, () -> build("1.4.2"))
			.run((context) -> assertThat(recordedBuildId(context)).isEqualTo("1.4.2"));
	}

	@Test
	void withNeitherTheNodeIsUnversioned() {
		this.runner.run((context) -> assertThat(recordedBuildId(context)).isNull());
	}

	private static BuildProperties build(String version) {
		Properties entries = new Properties();
		entries.setProperty("version", version);
		entries.setProperty("artifact", "shop");
		return new BuildProperties(entries);
	}

	private static String recordedBuildId(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		EngineStats stats = context.getBean(WorkflowEngine.class).stats(null, Duration.ofMinutes(5));
		assertThat(stats.nodes()).hasSize(1);
		EngineStats.Node node = stats.nodes().get(0);
		return node.buildId();
	}

}
