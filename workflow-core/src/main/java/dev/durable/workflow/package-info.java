/**
 * The public API of the Durable workflow engine for workflow and activity code: the
 * {@link dev.durable.workflow.Workflow @Workflow} and
 * {@link dev.durable.workflow.Activity @Activity} annotations and their handler
 * annotations, {@link dev.durable.workflow.Workflows} (the calls workflow code makes:
 * activities, timers, children, signals to other runs), the options records, the failures
 * that cross activity, child and update boundaries, and the
 * {@link dev.durable.workflow.WorkflowEngine} that runs them on PostgreSQL. Types are
 * non-null unless marked {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.durable.workflow;

import org.jspecify.annotations.NullMarked;
