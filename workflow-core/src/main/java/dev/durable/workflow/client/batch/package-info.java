/**
 * Batch operations: a signal, cancel, terminate or reset applied to every run a filter
 * matches, started and followed through the
 * {@link dev.durable.workflow.client.WorkflowClient}. Types are non-null unless marked
 * {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.durable.workflow.client.batch;

import org.jspecify.annotations.NullMarked;
