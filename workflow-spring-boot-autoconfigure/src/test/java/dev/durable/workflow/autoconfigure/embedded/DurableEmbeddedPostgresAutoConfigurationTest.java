package dev.durable.workflow.autoconfigure.embedded;

import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.greeting.GreetingConfiguration;
import dev.durable.workflow.autoconfigure.greeting.GreetingWorkflow;
import dev.durable.workflow.client.StartOptions;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DurableEmbeddedPostgresAutoConfiguration}: real servers on temporary
 * data directories and free ports.
 */
class DurableEmbeddedPostgresAutoConfigurationTest {

	@TempDir
	Path temp;

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DurableEmbeddedPostgresAutoConfiguration.class,
					DataSourceAutoConfiguration.class))
			.withPropertyValues("durable.workflow.embedded-postgres.data-directory=" + this.temp.resolve("pgdata"),
					"durable.workflow.embedded-postgres.port=0");
	}

	@Test
	void startsAServerWithAPooledDataSourceAndKeepsItsDataAcrossRestarts() {
		runner().run((context) -> {
			assertThat(context).hasSingleBean(EmbeddedPostgresServer.class).hasSingleBean(JdbcConnectionDetails.class);
			DataSource dataSource = context.getBean(DataSource.class);
			assertThat(dataSource).isInstanceOf(HikariDataSource.class);
			int port = context.getBean(EmbeddedPostgresServer.class).getPort();
			assertThat(((HikariDataSource) dataSource).getJdbcUrl())
				.startsWith("jdbc:postgresql://localhost:" + port + "/");
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			jdbc.execute("CREATE TABLE kept (value int)");
			jdbc.update("INSERT INTO kept VALUES (42)");
		});
		assertThat(this.temp.resolve("pgdata/PG_VERSION")).exists();
		assertThat(this.temp.resolve("pgdata/postmaster.pid")).as("server stopped with the context").doesNotExist();
		runner().run((context) -> {
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			assertThat(jdbc.queryForObject("SELECT value FROM kept", Integer.class)).isEqualTo(42);
		});
	}

	@Test
	void servesTheEngine() {
		runner().withConfiguration(AutoConfigurations.of(DurableWorkflowAutoConfiguration.class))
			.withUserConfiguration(GreetingConfiguration.class)
			.run((context) -> {
				WorkflowClient client = context.getBean(WorkflowClient.class);
				assertThat(client.execute(GreetingWorkflow::run, "grace", StartOptions.DEFAULT))
					.isEqualTo("Hello grace! Bye grace!");
				JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
				assertThat(jdbc.queryForObject("SELECT count(*) FROM durable.workflow_run", Integer.class)).isOne();
			});
	}

	@Test
	void refusesADataDirectoryInUse() {
		runner().run((first) -> {
			assertThat(first).hasNotFailed();
			runner().run((second) -> {
				assertThat(second).hasFailed();
				assertThat(second.getStartupFailure()).rootCause()
					.hasMessageContaining("is in use by another running application")
					.hasMessageContaining("durable.workflow.embedded-postgres.data-directory");
			});
		});
	}

	@Test
	void refusesAPortInUse() {
		int busy = EmbeddedPostgresSupport.port();
		runner().withPropertyValues("durable.workflow.embedded-postgres.port=" + busy).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.hasStackTraceContaining("Port " + busy + " for the embedded PostgreSQL server is in use")
				.hasStackTraceContaining("durable.workflow.embedded-postgres.port");
		});
	}

	@Test
	void backsOffWhenADataSourceUrlIsSet() {
		runner().withPropertyValues("spring.datasource.url=" + EmbeddedPostgresSupport.jdbcUrl()).run((context) -> {
			assertThat(context).doesNotHaveBean(EmbeddedPostgresServer.class).hasSingleBean(DataSource.class);
			assertThat(Files.exists(this.temp.resolve("pgdata"))).isFalse();
		});
	}

	@Test
	void backsOffWhenDisabled() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DurableEmbeddedPostgresAutoConfiguration.class))
			.withPropertyValues("durable.workflow.embedded-postgres.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(EmbeddedPostgresServer.class));
	}

	@Test
	void backsOffFromADataSourceOfTheApplication() {
		runner().withBean(DataSource.class, EmbeddedPostgresSupport::dataSource)
			.run((context) -> assertThat(context).doesNotHaveBean(EmbeddedPostgresServer.class)
				.doesNotHaveBean(JdbcConnectionDetails.class));
	}

}
