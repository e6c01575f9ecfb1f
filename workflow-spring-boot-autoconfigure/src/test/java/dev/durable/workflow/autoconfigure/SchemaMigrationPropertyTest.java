package dev.durable.workflow.autoconfigure;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.durable.workflow.autoconfigure.failtypes.FailTypesConfiguration;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code durable.workflow.migrate-schema=false}: a node that leaves the schema to a
 * migration ahead of the rollout starts on a current schema and refuses, at startup, one
 * it would fail on later.
 */
class SchemaMigrationPropertyTest {

	private final String schema = EmbeddedPostgresSupport.newSchemaName();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
		.withUserConfiguration(FailTypesConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues("durable.workflow.schema=" + this.schema);

	@Test
	void aNodeThatDoesNotMigrateRefusesASchemaThatIsNotCurrent() {
		this.runner.withPropertyValues("durable.workflow.migrate-schema=false")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("Schema '" + this.schema + "' lacks tables or changesets")
				.hasStackTraceContaining("durable.workflow.migrate-schema=false"));
	}

	@Test
	void aNodeThatDoesNotMigrateStartsOnASchemaAnotherNodeMigrated() {
		this.runner.run((migrating) -> assertThat(migrating).hasNotFailed());
		this.runner.withPropertyValues("durable.workflow.migrate-schema=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

}
