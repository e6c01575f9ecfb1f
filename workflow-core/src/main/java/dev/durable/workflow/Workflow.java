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

}
