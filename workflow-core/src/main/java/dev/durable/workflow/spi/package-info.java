/**
 * Service-provider interfaces the engine declares for the Spring module and the test kit:
 * what they need of the engine beyond the public API, behind interfaces, so that no
 * module outside workflow-core reaches into {@code dev.durable.workflow.internal}.
 */
@NullMarked
package dev.durable.workflow.spi;

import org.jspecify.annotations.NullMarked;
