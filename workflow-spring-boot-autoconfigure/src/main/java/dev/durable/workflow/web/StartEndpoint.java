package dev.durable.workflow.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the generated endpoint that starts runs: open unless the API is read-only, since
 * starting workflows is what the API is for. A start that also signals an open run
 * (signal-with-start) checks for an operation itself.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@interface StartEndpoint {

}
