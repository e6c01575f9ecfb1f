package dev.durable.workflow.autoconfigure.actuate;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import dev.durable.workflow.autoconfigure.DurableWorkflowAutoConfiguration;
import dev.durable.workflow.autoconfigure.DurableWorkflowProperties;
import dev.durable.workflow.autoconfigure.StartupReplayCheck;
import dev.durable.workflow.engine.WorkflowEngine;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@code durableWorkflow} health contributor, when Spring
 * Boot's health module is on the classpath;
 * {@code management.health.durable-workflow.enabled=false} turns it off.
 */
@AutoConfiguration(after = DurableWorkflowAutoConfiguration.class)
@ConditionalOnClass({ WorkflowEngine.class, HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(WorkflowEngine.class)
@ConditionalOnEnabledHealthIndicator("durable-workflow")
public final class DurableWorkflowHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "durableWorkflowHealthIndicator", "durableWorkflowHealthContributor" })
	WorkflowEngineHealthIndicator durableWorkflowHealthIndicator(WorkflowEngine engine,
			DurableWorkflowProperties properties) {
		return new WorkflowEngineHealthIndicator(engine, properties.getHealth());
	}

	@Bean
	@ConditionalOnBean(StartupReplayCheck.class)
	@ConditionalOnMissingBean(name = "durableReplayCheckHealthIndicator")
	ReplayCheckHealthIndicator durableReplayCheckHealthIndicator(StartupReplayCheck check) {
		return new ReplayCheckHealthIndicator(check);
	}

}
