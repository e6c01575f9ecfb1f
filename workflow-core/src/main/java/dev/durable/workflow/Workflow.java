package dev.durable.workflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class as a workflow definition. The engine creates a fresh instance per run, on the
 * run's own thread; it is never a Spring component and never wrapped in AOP proxies.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Workflow {

	/** The workflow type name; defaults to the class's simple name. */
	String value() default "";

	/** A dynamic workflow receives starts for type names no other workflow claims. */
	boolean dynamic() default false;

	/**
	 * Exception types that fail the run when workflow code throws them (instances of subclasses
	 * included), as an {@link ApplicationFailure} does: the run closes FAILED with a failure of
	 * type the exception's class name, its message and stack trace. Any other exception that is
	 * not an {@code ApplicationFailure} fails the workflow task instead, which is retried until
	 * fixed code is deployed. Added to the engine's
	 * {@link WorkflowEngine.Builder#failWorkflowExceptionTypes(Class...) default}; from an update
	 * handler such an exception fails the update only. Non-determinism and the engine's own task
	 * failures always fail the task.
	 */
	Class<? extends Throwable>[] failWorkflowExceptionTypes() default {};

}
