package dev.durable.workflow.autoconfigure;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.autoconfigure.failtypes.FailTypesConfiguration;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code durable.workflow.direct.*} reaches the engine: its LISTEN session and its schema
 * migration use the direct URL rather than the application's DataSource (which may go
 * through a transaction-mode PgBouncer). PgBouncerTransactionPoolingIT in workflow-core
 * runs the engine through a real PgBouncer.
 */
class DirectDataSourcePropertyTest {

	private final String schema = EmbeddedPostgresSupport.newSchemaName();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
		.withUserConfiguration(FailTypesConfiguration.class)
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withPropertyValues("durable.workflow.schema=" + this.schema, "durable.workflow.worker.poll-interval=100ms");

	@Test
	void theEngineListensOnTheDirectUrl() {
		this.runner
			.withPropertyValues("durable.workflow.direct.url=" + EmbeddedPostgresSupport.jdbcUrl()
					+ "&ApplicationName=durable-direct", "durable.workflow.direct.username=postgres")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				JdbcTemplate jdbc = new JdbcTemplate(EmbeddedPostgresSupport.dataSource());
				await().until(() -> jdbc.queryForList("SELECT application_name FROM pg_stat_activity WHERE query = ?",
						String.class, "LISTEN durable_" + this.schema), (names) -> !names.isEmpty());
				assertThat(jdbc.queryForList("SELECT application_name FROM pg_stat_activity WHERE query = ?",
						String.class, "LISTEN durable_" + this.schema))
					.containsExactly("durable-direct");
			});
	}

	@Test
	void theSchemaIsMigratedOverTheDirectUrl() {
		// nothing listens on port 1: a migration over the direct URL cannot connect
		this.runner
			.withPropertyValues("durable.workflow.direct.url=jdbc:postgresql://127.0.0.1:1/postgres?connectTimeout=2")
			.run((context) -> assertThat(context).getFailure()
				.hasStackTraceContaining("Cannot migrate schema '" + this.schema + "'"));
	}

}
