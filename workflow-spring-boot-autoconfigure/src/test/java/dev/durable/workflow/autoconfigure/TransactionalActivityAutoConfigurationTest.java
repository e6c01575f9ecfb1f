package dev.durable.workflow.autoconfigure;

import java.time.Duration;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.autoconfigure.ledger.LedgerConfiguration;
import dev.durable.workflow.autoconfigure.ledger.LedgerWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.client.WorkflowFailedException;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A transactional activity under Spring: it runs in a transaction of the application's
 * transaction manager, which its {@code JdbcTemplate} joins, at the isolation level
 * {@code durable.workflow.activity.transactional.isolation} sets.
 */
class TransactionalActivityAutoConfigurationTest {

	private final String schema = "txactivity_" + Long.toHexString(System.nanoTime() & 0xFFFFFF);

	private final String table = this.schema + "_app.entry";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
		.withBean(DataSource.class, EmbeddedPostgresSupport::newPooledDataSource)
		.withUserConfiguration(LedgerConfiguration.class)
		.withPropertyValues("durable.workflow.schema=" + this.schema, "durable.workflow.worker.poll-interval=100ms");

	private void createTable(DataSource dataSource) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("CREATE SCHEMA IF NOT EXISTS " + this.schema + "_app");
		jdbc.execute("CREATE TABLE IF NOT EXISTS " + this.table + " (entry text PRIMARY KEY, amount int NOT NULL)");
	}

	@Test
	void theActivityRunsInTheApplicationsTransactionAtTheConfiguredIsolation() {
		this.runner.withPropertyValues("durable.workflow.activity.transactional.isolation=serializable")
			.run((context) -> {
				createTable(context.getBean(DataSource.class));
				WorkflowClient client = context.getBean(WorkflowClient.class);
				String isolation = client
					.start(LedgerWorkflow::run, this.table + ":e1:5",
							StartOptions.withId("ledger-" + UUID.randomUUID()))
					.result(Duration.ofSeconds(30));
				assertThat(isolation).isEqualTo("serializable");
				assertThat(context.getBean(LedgerConfiguration.CountingTransactionManager.class).begun).hasValue(1);
				assertThat(context.getBean(JdbcTemplate.class)
					.queryForList("SELECT entry FROM " + this.table, String.class)).containsExactly("e1");
			});
	}

	@Test
	void aFailureRollsTheApplicationsWritesBack() {
		this.runner.run((context) -> {
			createTable(context.getBean(DataSource.class));
			WorkflowClient client = context.getBean(WorkflowClient.class);
			assertThatThrownBy(() -> client
				.start(LedgerWorkflow::run, this.table + ":e2:-1", StartOptions.withId("ledger-" + UUID.randomUUID()))
				.result(Duration.ofSeconds(30))).isInstanceOf(WorkflowFailedException.class);
			assertThat(context.getBean(JdbcTemplate.class)
				.queryForObject("SELECT count(*) FROM " + this.table, Integer.class)).isZero();
		});
	}

}
