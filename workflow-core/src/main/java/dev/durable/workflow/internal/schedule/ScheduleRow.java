package dev.durable.workflow.internal.schedule;

import java.time.Instant;

import dev.durable.workflow.client.schedule.ScheduleSpec;

/**
 * A schedule row as read. Public only so that tests can hold a stale read and replay a
 * step with it ({@link ScheduleLoop#fireDue(ScheduleRow)}).
 *
 * @param namespace namespace
 * @param scheduleId schedule id
 * @param spec when it fires
 * @param policies overlap policy and catch-up window
 * @param action what it starts
 * @param state cursor, buffer, counters, note
 * @param paused whether it is paused
 * @param nextRunAt the due time of the next spec time, or {@code null} when there is none
 * @param version bumped by every change (compare-and-set)
 * @param createdAt created
 * @param updatedAt last changed by a person
 */
public record ScheduleRow(String namespace, String scheduleId, ScheduleSpec spec, SchedulePolicies policies,
		StoredAction action, ScheduleState state, boolean paused, Instant nextRunAt, long version, Instant createdAt,
		Instant updatedAt) {

	ScheduleRow withState(ScheduleState newState, Instant newNextRunAt) {
		return new ScheduleRow(this.namespace, this.scheduleId, this.spec, this.policies, this.action, newState,
				this.paused, newNextRunAt, this.version, this.createdAt, this.updatedAt);
	}

	ScheduleTimes times() {
		return new ScheduleTimes(this.scheduleId, this.spec);
	}

}
