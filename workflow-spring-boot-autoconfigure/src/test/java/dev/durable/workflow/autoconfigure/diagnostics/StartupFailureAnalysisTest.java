package dev.durable.workflow.autoconfigure.diagnostics;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.env.MockEnvironment;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.broken.badactivity.BadActivityConfiguration;
import dev.durable.workflow.autoconfigure.broken.norun.NoRunConfiguration;
import dev.durable.workflow.autoconfigure.embedded.DurableEmbeddedPostgresAutoConfiguration;
import dev.durable.workflow.autoconfigure.greeting.GreetingConfiguration;
import dev.durable.workflow.autoconfigure.transactional.TransactionalConfiguration;
import dev.durable.workflow.client.WorkflowClient;
import dev.durable.workflow.test.EmbeddedPostgresSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Durable's startup errors, in real {@link SpringApplication} startups, appear in Spring
 * Boot's "APPLICATION FAILED TO START" report with what is wrong and how to fix it (the
 * analyzers are found through {@code META-INF/spring.factories} and come before Spring
 * Boot's own).
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureAnalysisTest {

	private static void failToStart(Class<?>... sources) {
		failToStart(new String[0], sources);
	}

	private static void failToStart(String[] properties, Class<?>... sources) {
		SpringApplication application = new SpringApplication(sources);
		application.setWebApplicationType(WebApplicationType.NONE);
		application
			.setDefaultProperties(java.util.Map.of("durable.workflow.schema", EmbeddedPostgresSupport.newSchemaName()));
		String[] args = java.util.Arrays.stream(properties).map((p) -> "--" + p).toArray(String[]::new);
		assertThatException().isThrownBy(() -> application.run(args).close());
	}

	private static String description(CapturedOutput output) {
		String text = output.toString();
		assertThat(text).contains("APPLICATION FAILED TO START");
		return text.substring(text.indexOf("APPLICATION FAILED TO START"));
	}

	@Test
	void aWorkflowClassWithoutARunMethodIsReportedWithItsClassAndTheRule(CapturedOutput output) {
		failToStart(NoRunConfiguration.class, Database.class);
		assertThat(description(output))
			.contains("Durable could not register the workflow class " + NoRunConfiguration.Aimless.class.getName())
			.contains(NoRunConfiguration.Aimless.class.getName() + " has no public @WorkflowRun method")
			.contains("Action:")
			.contains("Change NoRunConfiguration.Aimless as described above")
			.contains("exactly one public @WorkflowRun method");
	}

	@Test
	void aTransactionalWorkflowIsReportedAsAnInvalidWorkflowClass(CapturedOutput output) {
		failToStart(TransactionalConfiguration.class, Database.class);
		assertThat(description(output)).contains("Durable could not register the workflow class")
			.contains("@Transactional is not supported on workflow classes");
	}

	@Test
	void anActivityMethodWhosePayloadCannotBeRecordedIsReportedWithTheMethod(CapturedOutput output) {
		failToStart(BadActivityConfiguration.class, Database.class);
		assertThat(description(output))
			.contains("Durable could not register the activity " + BadActivityConfiguration.Uploads.class.getName())
			.contains("upload(java.io.InputStream)")
			.contains("cannot be a durable payload")
			.contains("Change BadActivityConfiguration.Uploads as described above")
			.contains("recorded as JSON");
	}

	@Test
	void noDatabaseWithTheDevelopmentDatabaseTurnedOffIsReportedWithBothWaysToGetOne(CapturedOutput output) {
		failToStart(new String[] { "durable.workflow.embedded-postgres.enabled=false" }, GreetingConfiguration.class,
				PooledDatabase.class);
		assertThat(description(output)).contains("Durable needs a PostgreSQL DataSource, and this application has none")
			.contains("durable.workflow.embedded-postgres.enabled=false")
			.contains("Set spring.datasource.url")
			.contains("remove durable.workflow.embedded-postgres.enabled=false")
			// not Spring Boot's advice, which is an in-memory database
			.doesNotContain("H2");
	}

	@Test
	void aMissingDurableBeanWithoutAnyDataSourceIsReportedAsTheMissingDatabase(CapturedOutput output) {
		failToStart(GreetingConfiguration.class, NoDatabase.class, NeedsAClient.class);
		assertThat(description(output)).contains("Durable needs a PostgreSQL DataSource, and this application has none")
			.contains("Set spring.datasource.url");
	}

	@Test
	void otherFailuresAreLeftToSpringBoot() {
		MockEnvironment environment = new MockEnvironment();
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		MissingDataSourceFailureAnalyzer analyzer = new MissingDataSourceFailureAnalyzer(environment, beanFactory);
		// a missing bean that is not Durable's
		assertThat(analyzer.analyze(new NoSuchBeanDefinitionException(String.class))).isNull();
		assertThat(analyzer.analyze(new NoSuchBeanDefinitionException(WorkflowClient.class))).isNotNull();
		// a DataSource exists: a missing Durable bean has another reason
		beanFactory.registerSingleton("dataSource", EmbeddedPostgresSupport.dataSource());
		assertThat(analyzer.analyze(new NoSuchBeanDefinitionException(WorkflowClient.class))).isNull();
		// a configured database that fails: Spring Boot's analysis says why
		environment.setProperty("spring.datasource.url", "jdbc:postgresql://localhost:1/nothing");
		assertThat(analyzer.analyze(new NoSuchBeanDefinitionException(WorkflowClient.class))).isNull();
	}

	/** The engine on the test database. */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DurableWorkflowAutoConfiguration.class)
	static class Database {

		@Bean
		DataSource dataSource() {
			return EmbeddedPostgresSupport.newPooledDataSource();
		}

	}

	/**
	 * Spring Boot's pooled data source, the development database and the engine, as the
	 * starter has them.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DurableEmbeddedPostgresAutoConfiguration.class, DataSourceAutoConfiguration.class,
			DurableWorkflowAutoConfiguration.class })
	static class PooledDatabase {

	}

	/** The engine's auto-configuration with no data source at all. */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DurableWorkflowAutoConfiguration.class)
	static class NoDatabase {

	}

	/** A bean of the application that needs Durable's client. */
	@Configuration(proxyBeanMethods = false)
	static class NeedsAClient {

		@Bean
		String orders(WorkflowClient client) {
			return "orders";
		}

	}

}
