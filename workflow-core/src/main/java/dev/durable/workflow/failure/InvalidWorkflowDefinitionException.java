package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.engine.WorkflowEngine;

/**
 * A workflow class the engine cannot run: not {@code @Workflow}, no or two
 * {@code @WorkflowRun} methods, a handler or run method whose parameters or result cannot
 * be recorded, two handlers of one name, a type name declared twice. Thrown when the
 * class is registered (by {@link WorkflowEngine.Builder#register} or
 * {@link WorkflowEngine.Builder#build()}, in Spring Boot while the engine bean is
 * created), before anything runs. The message names the class, the method where there is
 * one, and the rule it breaks.
 * <p>
 * An {@link IllegalArgumentException}, as this was before it had a type of its own.
 */
public class InvalidWorkflowDefinitionException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String workflowClassName;

	/**
	 * @param workflowClass the class that is not a valid workflow
	 * @param message what is wrong: the class, the method and the rule
	 */
	public InvalidWorkflowDefinitionException(Class<?> workflowClass, String message) {
		this(workflowClass, message, null);
	}

	/**
	 * @param workflowClass the class that is not a valid workflow
	 * @param message what is wrong: the class, the method and the rule
	 * @param cause the underlying failure, or {@code null}
	 */
	public InvalidWorkflowDefinitionException(Class<?> workflowClass, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.workflowClassName = workflowClass.getName();
	}

	/** The fully qualified name of the workflow class. */
	public String workflowClassName() {
		return this.workflowClassName;
	}

}
