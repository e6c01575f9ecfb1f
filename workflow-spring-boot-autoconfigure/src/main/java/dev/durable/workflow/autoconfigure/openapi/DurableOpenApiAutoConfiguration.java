package dev.durable.workflow.autoconfigure.openapi;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.durable.workflow.autoconfigure.web.DurableWorkflowWebAutoConfiguration;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.web.WebAccess;
import dev.durable.workflow.web.WorkflowRestController;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the OpenAPI description of the generated REST endpoints, when
 * the application has springdoc ({@code springdoc-openapi-starter-webmvc-ui} or
 * {@code -api}) and the endpoints are on.
 */
@AutoConfiguration(after = DurableWorkflowWebAutoConfiguration.class)
@ConditionalOnClass(OpenApiCustomizer.class)
@ConditionalOnBean({ WorkflowEngine.class, WorkflowRestController.class, WebAccess.class })
public final class DurableOpenApiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "durableWorkflowOpenApiCustomizer")
	OpenApiCustomizer durableWorkflowOpenApiCustomizer(WorkflowEngine engine, WebAccess access,
			ObjectProvider<BuildProperties> build, Environment environment) {
		// an untitled document takes the application's build (spring-boot:build-info),
		// else its name, and Durable's version
		BuildProperties properties = build.getIfAvailable();
		String title = (properties != null && properties.getName() != null) ? properties.getName()
				: environment.getProperty("spring.application.name", "Durable workflows API");
		String version = (properties != null && properties.getVersion() != null) ? properties.getVersion()
				: durableVersion();
		return new WorkflowApiCustomizer(engine, access.basePath(), title, version);
	}

	/** The version in this module's jar manifest; {@code unversioned} outside a jar. */
	private static String durableVersion() {
		String version = DurableOpenApiAutoConfiguration.class.getPackage().getImplementationVersion();
		return (version != null) ? version : "unversioned";
	}

}
