package dev.durable.workflow.failure;

import org.jspecify.annotations.Nullable;

import dev.durable.workflow.engine.WorkflowEngine;

/**
 * An activity the engine cannot register: a bean that is not {@code @Activity}, a method
 * whose parameters or result cannot be recorded, an invalid {@code @ActivityMethod}
 * duration, two methods of one activity type name, a dynamic activity with the wrong
 * signature. Thrown when the activity is registered
 * ({@link WorkflowEngine.Builder#registerActivities}, in Spring Boot while the engine
 * bean is created), or when a workflow's activity interface is first used. The message
 * names the type, the method where there is one, and the rule it breaks.
 * <p>
 * An {@link IllegalArgumentException}, as this was before it had a type of its own.
 */
public class InvalidActivityDefinitionException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String activityClassName;

	/**
	 * @param activityClass the activity type (the class or interface carrying
	 * {@code @Activity}), or the class of a bean that is not one
	 * @param message what is wrong: the type, the method and the rule
	 */
	public InvalidActivityDefinitionException(Class<?> activityClass, String message) {
		this(activityClass, message, null);
	}

	/**
	 * @param activityClass the activity type (the class or interface carrying
	 * {@code @Activity}), or the class of a bean that is not one
	 * @param message what is wrong: the type, the method and the rule
	 * @param cause the underlying failure, or {@code null}
	 */
	public InvalidActivityDefinitionException(Class<?> activityClass, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.activityClassName = activityClass.getName();
	}

	/** The fully qualified name of the activity type. */
	public String activityClassName() {
		return this.activityClassName;
	}

}
