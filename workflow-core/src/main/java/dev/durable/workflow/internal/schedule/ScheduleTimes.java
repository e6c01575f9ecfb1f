package dev.durable.workflow.internal.schedule;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.durable.workflow.client.schedule.CronSchedule;
import dev.durable.workflow.client.schedule.ScheduleCalendar;
import dev.durable.workflow.client.schedule.ScheduleInterval;
import dev.durable.workflow.client.schedule.ScheduleSpec;

/**
 * The times of a spec: the earliest next time of any of its cron expressions, calendars
 * and intervals (so a time two of them share comes once), passed over while a skip
 * calendar matches it. Cron times are computed in the zone's wall-clock time, so that
 * each local time fires once across daylight-saving changes (Spring's
 * {@code CronExpression} on a {@code ZonedDateTime} skips a spring-forward day's missing
 * time and fires the repeated hour twice). Jitter is derived from the schedule id and the
 * nominal time, so every node and every retry computes the same due time.
 */
final class ScheduleTimes {

	private static final Logger log = LoggerFactory.getLogger(ScheduleTimes.class);

	/**
	 * Skipped times passed over in one search before the spec counts as ended: a bound on
	 * the work of a step (a skip is checked time by time, some microseconds each).
	 */
	static final int MAX_SKIPPED = 10_000;

	private final String scheduleId;

	private final ScheduleSpec spec;

	private final ZoneId zone;

	/** The cron expressions and the compiled calendars. */
	private final List<CronSchedule> calendars = new ArrayList<>();

	private final List<ScheduleInterval> intervals;

	private final List<CronSchedule> skips = new ArrayList<>();

	ScheduleTimes(String scheduleId, ScheduleSpec spec) {
		this.scheduleId = scheduleId;
		this.spec = spec;
		this.zone = spec.timeZone();
		spec.cronExpressions().forEach((expression) -> this.calendars.add(CronSchedule.parse(expression)));
		spec.calendars().forEach((calendar) -> this.calendars.add(compile(calendar)));
		spec.skip().forEach((calendar) -> this.skips.add(compile(calendar)));
		this.intervals = spec.intervals();
	}

	private static CronSchedule compile(ScheduleCalendar calendar) {
		return CronSchedule.parse(calendar.toCron());
	}

	/**
	 * The first spec time strictly after the instant, within the start and end bounds; or
	 * {@code null}.
	 */
	Instant nextNominal(Instant after) {
		Instant from = after;
		if (this.spec.startAt() != null && from.isBefore(this.spec.startAt())) {
			from = this.spec.startAt().minusNanos(1);
		}
		int sources = this.calendars.size() + this.intervals.size();
		// the next time of each source after 'from'; only sources at or before a skipped
		// time move on
		Instant[] next = new Instant[sources];
		for (int i = 0; i < sources; i++) {
			next[i] = next(i, from);
		}
		for (int skipped = 0; skipped < MAX_SKIPPED; skipped++) {
			Instant earliest = null;
			for (Instant t : next) {
				if (t != null && (earliest == null || t.isBefore(earliest))) {
					earliest = t;
				}
			}
			if (earliest == null || (this.spec.endAt() != null && !earliest.isBefore(this.spec.endAt()))) {
				return null;
			}
			if (!skipped(earliest)) {
				return earliest;
			}
			for (int i = 0; i < sources; i++) {
				if (next[i] != null && !next[i].isAfter(earliest)) {
					next[i] = next(i, earliest);
				}
			}
		}
		log.warn("The skips of schedule {} exclude more than {} consecutive times after {}: it has no more times",
				this.scheduleId, MAX_SKIPPED, after);
		return null;
	}

	private Instant next(int source, Instant after) {
		return (source < this.calendars.size()) ? nextCron(this.calendars.get(source), after)
				: nextInterval(this.intervals.get(source - this.calendars.size()), after);
	}

	private Instant nextCron(CronSchedule cron, Instant after) {
		LocalDateTime local = after.atZone(this.zone).toLocalDateTime();
		// local times only grow: a time repeated by a fall-back maps to its first
		// instant, which
		// lies before 'after' once fired, so it is passed over instead of firing twice
		for (int i = 0; i < 10_000; i++) {
			local = cron.next(local);
			if (local == null) {
				return null;
			}
			// a time in a spring-forward gap moves forward by the gap (02:30 becomes
			// 03:30)
			Instant instant = ZonedDateTime.ofLocal(local, this.zone, null).toInstant();
			if (instant.isAfter(after)) {
				return instant;
			}
		}
		return null;
	}

	private static Instant nextInterval(ScheduleInterval interval, Instant after) {
		long every = interval.every().toMillis();
		long offset = interval.offset().toMillis();
		long k = Math.floorDiv(after.toEpochMilli() - offset, every) + 1;
		return Instant.ofEpochMilli(k * every + offset);
	}

	/** Whether a skip calendar matches the local time of the instant (to the second). */
	private boolean skipped(Instant time) {
		if (this.skips.isEmpty()) {
			return false;
		}
		LocalDateTime local = time.atZone(this.zone).toLocalDateTime();
		if (local.getNano() != 0) {
			return false; // calendars match whole seconds only
		}
		LocalDateTime before = local.minusSeconds(1);
		for (CronSchedule skip : this.skips) {
			if (local.equals(skip.next(before))) {
				return true;
			}
		}
		return false;
	}

	/** The jitter of a nominal time: below the spec's jitter, the same on every node. */
	Duration jitter(Instant nominal) {
		Duration max = this.spec.jitter();
		if (max == null || max.toMillis() == 0) {
			return Duration.ZERO;
		}
		long hash = UUID.nameUUIDFromBytes((this.scheduleId + "@" + nominal).getBytes(StandardCharsets.UTF_8))
			.getMostSignificantBits();
		return Duration.ofMillis(Math.floorMod(hash, max.toMillis()));
	}

	/** When a nominal time is due: the time plus its jitter. */
	Instant due(Instant nominal) {
		return nominal.plus(jitter(nominal));
	}

	Duration maxJitter() {
		return (this.spec.jitter() != null) ? this.spec.jitter() : Duration.ZERO;
	}

}
