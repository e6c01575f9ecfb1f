package dev.durable.workflow.internal.runtime;

import java.time.Instant;

import dev.durable.workflow.activity.ActivityOptions;

/**
 * A pending activity as its ACTIVITY_SCHEDULED command recorded it. The first attempt of
 * an inline activity has no row in the database: a node that takes the run over starts
 * from this.
 *
 * @param seq the activity's sequence number in the run
 * @param name the activity type
 * @param args the encoded arguments
 * @param options the options it was scheduled with
 * @param scheduledAt the time of the workflow task that scheduled it
 */
public record ScheduledActivity(long seq, String name, byte[] args, ActivityOptions options, Instant scheduledAt) {
}
