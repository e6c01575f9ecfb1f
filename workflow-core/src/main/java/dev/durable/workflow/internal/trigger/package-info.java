/**
 * What events on topics do to workflow types ({@code @StartOnEvent},
 * {@code @CancelOnEvent}): {@link dev.durable.workflow.internal.trigger.EventTriggers}
 * declares a node's triggers and acts on those events set off (starts runs, batches,
 * cancels). Beside the schedules, above the client whose starts and cancels it uses.
 */
@NullMarked
package dev.durable.workflow.internal.trigger;

import org.jspecify.annotations.NullMarked;
