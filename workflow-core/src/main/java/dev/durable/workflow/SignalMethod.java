package dev.durable.workflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a workflow method as a message handler of this kind; takes zero or one parameter.
 * What the handler lets out fails the run as it would from the main method: an engine
 * failure ({@code ApplicationFailure}, {@code ActivityFailure},
 * {@code ChildWorkflowFailure}, {@code TimeoutFailure}, ...) or a type listed in
 * {@code failWorkflowExceptionTypes}; after a cancel request, a {@code CanceledFailure}
 * (or a failure caused by one) closes it CANCELED. Any other exception fails the workflow
 * task, which is retried.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface SignalMethod {

	/** The handler name; defaults to the method name. */
	String name() default "";

	/**
	 * A dynamic handler takes {@code (String name, EncodedValue payload)} and receives
	 * unmatched names.
	 */
	boolean dynamic() default false;

}
