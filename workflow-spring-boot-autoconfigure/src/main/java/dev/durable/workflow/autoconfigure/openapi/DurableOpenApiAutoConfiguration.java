package dev.durable.workflow.autoconfigure.openapi;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

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
	OpenApiCustomizer durableWorkflowOpenApiCustomizer(WorkflowEngine engine, WebAccess access) {
		return new WorkflowApiCustomizer(engine, access.basePath());
	}

}
