/**
 * The client API: {@link dev.durable.workflow.client.WorkflowClient} starts runs and
 * reaches existing ones through a {@link dev.durable.workflow.client.WorkflowHandle}
 * (result, signals, queries, updates, cancel, terminate, reset, describe, history), lists
 * them with a {@link dev.durable.workflow.client.WorkflowFilter}, and manages schedules
 * through the {@link dev.durable.workflow.client.schedule.ScheduleClient} (its own
 * package, beside {@code client.batch}); with the options, descriptions and exceptions of
 * those calls. Types are non-null unless marked
 * {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.durable.workflow.client;

import org.jspecify.annotations.NullMarked;
