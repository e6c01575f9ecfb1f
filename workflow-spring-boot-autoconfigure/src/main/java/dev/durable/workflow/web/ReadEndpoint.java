package dev.durable.workflow.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a generated endpoint that reads even when called with {@code POST} (a query: it
 * never changes a run), so {@link OperationAccessInterceptor} treats it as a read.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@interface ReadEndpoint {

}
