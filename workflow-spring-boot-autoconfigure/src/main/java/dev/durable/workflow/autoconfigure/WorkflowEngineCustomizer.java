package dev.durable.workflow.autoconfigure;

import dev.durable.workflow.engine.WorkflowEngine;

/**
 * Callback to customize the {@link WorkflowEngine.Builder} of the auto-configured engine,
 * after the configuration properties, the scanned workflow classes and the activity beans
 * are applied and before the engine is built. Register one or more as beans; they run in
 * {@link org.springframework.core.annotation.Order order}.
 */
@FunctionalInterface
public interface WorkflowEngineCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder of the engine
	 */
	void customize(WorkflowEngine.Builder builder);

}
