/**
 * {@link dev.durable.workflow.test.spring.DurableWorkflowTest @DurableWorkflowTest}: time
 * skipping in a Spring Boot application's auto-configured engine.
 */
@NullMarked
package dev.durable.workflow.test.spring;

import org.jspecify.annotations.NullMarked;
