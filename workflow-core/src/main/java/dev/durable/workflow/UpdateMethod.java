package dev.durable.workflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a workflow method as a message handler of this kind; takes zero or one parameter.
 * What would fail the run from the main method (an engine failure such as
 * {@code ApplicationFailure} or {@code ActivityFailure}, or a type listed in
 * {@code failWorkflowExceptionTypes}) fails this update only: its caller gets
 * {@code WorkflowUpdateFailedException} with that cause, and the run goes on. Any other
 * exception fails the workflow task, which is retried (the caller keeps waiting).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface UpdateMethod {

	/** The handler name; defaults to the method name. */
	String name() default "";

	/**
	 * A dynamic handler takes {@code (String name, EncodedValue payload)} and receives
	 * unmatched names.
	 */
	boolean dynamic() default false;

}
