package dev.durable.workflow;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean (class or interface) whose public methods are activities. Called from workflow
 * code, a call is scheduled, recorded, retried and replayed by the engine; called from anywhere
 * else, it runs directly.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Activity {

}
