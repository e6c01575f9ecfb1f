/**
 * Schedules: the {@link dev.durable.workflow.client.schedule.ScheduleClient} that
 * creates, describes, pauses, triggers and deletes them, with their specs (intervals,
 * calendars, cron), actions and overlap policies. Types are non-null unless marked
 * {@link org.jspecify.annotations.Nullable @Nullable}.
 */
@NullMarked
package dev.durable.workflow.client.schedule;

import org.jspecify.annotations.NullMarked;
