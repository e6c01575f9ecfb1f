package dev.durable.workflow.autoconfigure.actuate;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.DurableWorkflowProperties;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@link WorkflowsEndpoint workflows} actuator endpoint, when
 * the actuator is on the classpath and the endpoint is available (enabled and exposed).
 */
@AutoConfiguration(after = DurableWorkflowAutoConfiguration.class)
@ConditionalOnClass({ WorkflowEngine.class, Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(WorkflowEngine.class)
@ConditionalOnAvailableEndpoint(WorkflowsEndpoint.class)
public final class DurableWorkflowEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	WorkflowsEndpoint workflowsEndpoint(WorkflowEngine engine, DurableWorkflowProperties properties) {
		return new WorkflowsEndpoint(engine, properties.getHealth().getStuckAfter());
	}

}
