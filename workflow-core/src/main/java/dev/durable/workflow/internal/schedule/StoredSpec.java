package dev.durable.workflow.internal.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import dev.durable.workflow.client.schedule.ScheduleCalendar;
import dev.durable.workflow.client.schedule.ScheduleInterval;
import dev.durable.workflow.client.schedule.ScheduleSpec;

/**
 * A spec as stored (jsonb in {@code schedule.spec}). Specs written before a spec could
 * combine several sources hold one {@code cronExpression}, or one {@code interval} with
 * its {@code offset}; they read as a spec of that one source. A {@code CRON_TZ=} prefix
 * such an expression may carry is dropped: the single-source spec evaluated its fields in
 * the spec's time zone and ignored the prefix, and reading keeps that meaning.
 *
 * @param cronExpressions cron expressions
 * @param calendars structured calendars
 * @param intervals intervals
 * @param skip skip calendars
 * @param timeZone zone
 * @param startAt start bound
 * @param endAt end bound
 * @param jitter jitter
 * @param cronExpression the old single cron expression (read only)
 * @param interval the old single interval (read only)
 * @param offset the offset of the old single interval (read only)
 */
record StoredSpec(List<String> cronExpressions, List<ScheduleCalendar> calendars, List<ScheduleInterval> intervals,
		List<ScheduleCalendar> skip, ZoneId timeZone, Instant startAt, Instant endAt, Duration jitter,
		String cronExpression, Duration interval, Duration offset) {

	private static final String ZONE_PREFIX = "CRON_TZ=";

	static StoredSpec of(ScheduleSpec spec) {
		return new StoredSpec(spec.cronExpressions(), spec.calendars(), spec.intervals(), spec.skip(), spec.timeZone(),
				spec.startAt(), spec.endAt(), spec.jitter(), null, null, null);
	}

	ScheduleSpec toSpec() {
		List<String> crons = new ArrayList<>((this.cronExpressions != null) ? this.cronExpressions : List.of());
		List<ScheduleInterval> every = new ArrayList<>((this.intervals != null) ? this.intervals : List.of());
		if (this.cronExpression != null) {
			String expression = this.cronExpression.trim();
			if (expression.startsWith(ZONE_PREFIX)) {
				String[] parts = expression.split("\\s+", 2);
				expression = (parts.length > 1) ? parts[1] : "";
			}
			crons.add(expression);
		}
		if (this.interval != null) {
			every.add(new ScheduleInterval(this.interval, this.offset));
		}
		return new ScheduleSpec(crons, this.calendars, every, this.skip, this.timeZone, this.startAt, this.endAt,
				this.jitter);
	}

}
