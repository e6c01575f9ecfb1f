package dev.durable.workflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a workflow method as a message handler of this kind; takes zero or one parameter.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface QueryMethod {

	/** The handler name; defaults to the method name. */
	String name() default "";

	/**
	 * A dynamic handler takes {@code (String name, EncodedValue payload)} and receives
	 * unmatched names.
	 */
	boolean dynamic() default false;

}
