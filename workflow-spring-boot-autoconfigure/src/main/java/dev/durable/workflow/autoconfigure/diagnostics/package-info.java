/**
 * Failure analyzers: Durable's startup errors (an invalid workflow class or activity, no
 * database) explained in Spring Boot's "APPLICATION FAILED TO START" report.
 */
@NullMarked
package dev.durable.workflow.autoconfigure.diagnostics;

import org.jspecify.annotations.NullMarked;
