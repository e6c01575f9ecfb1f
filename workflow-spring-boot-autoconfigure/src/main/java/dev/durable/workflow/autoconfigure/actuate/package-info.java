/**
 * Auto-configuration of the engine's operations support: the {@code workflows} actuator
 * endpoint, the {@code durableWorkflow} health contributor, Micrometer meters and
 * Observations.
 */
@NullMarked
package dev.durable.workflow.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
