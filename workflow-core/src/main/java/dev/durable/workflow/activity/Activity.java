package dev.durable.workflow.activity;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean (class or interface) whose public methods are activities. Called from
 * workflow code, a call is scheduled, recorded, retried and replayed by the engine;
 * called from anywhere else, it runs directly.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Activity {

	/**
	 * Put before the method name to make each activity's type name, so that two activity
	 * types can have methods of the same name ({@code namePrefix = "Bye"}: method
	 * {@code greet} is the activity type {@code "Byegreet"}). An explicit
	 * {@link ActivityMethod#name()} is used as it is. Empty: the method names.
	 */
	String namePrefix() default "";

	/**
	 * A dynamic activity: it runs every activity type no other registered activity has.
	 * Its type has exactly one method, taking
	 * {@code (String activityType, EncodedValue[] arguments)}; its result is converted to
	 * what the workflow asked for. A node has at most one.
	 */
	boolean dynamic() default false;

}
