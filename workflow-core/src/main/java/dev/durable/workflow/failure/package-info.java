/**
 * The failures that cross activity, child, update and payload boundaries, all
 * {@link dev.durable.workflow.failure.WorkflowException}s: what an activity or workflow
 * throws to fail ({@link dev.durable.workflow.failure.ApplicationFailure}), what workflow
 * code catches when a call fails, and the definition errors registration reports. Types
 * are non-null unless marked {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.durable.workflow.failure;

import org.jspecify.annotations.NullMarked;
