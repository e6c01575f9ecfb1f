package dev.durable.workflow.internal.schedule;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.UUID;


import dev.durable.workflow.client.CronSchedule;
import dev.durable.workflow.client.ScheduleSpec;

/**
 * The times of a spec. Cron times are computed in the zone's wall-clock time, so that each local
 * time fires once across daylight-saving changes (Spring's {@code CronExpression} on a
 * {@code ZonedDateTime} skips a spring-forward day's missing time and fires the repeated hour
 * twice). Jitter is derived from the schedule id and the nominal time, so every node and every
 * retry computes the same due time.
 */
final class ScheduleTimes {

	private final String scheduleId;

	private final ScheduleSpec spec;

	private final CronSchedule cron;

	ScheduleTimes(String scheduleId, ScheduleSpec spec) {
		this.scheduleId = scheduleId;
		this.spec = spec;
		this.cron = (spec.cronExpression() != null) ? CronSchedule.parse(spec.cronExpression()) : null;
	}

	/** The first spec time strictly after the instant, within the start and end bounds; or {@code null}. */
	Instant nextNominal(Instant after) {
		Instant from = after;
		if (this.spec.startAt() != null && from.isBefore(this.spec.startAt())) {
			from = this.spec.startAt().minusNanos(1);
		}
		Instant next = (this.cron != null) ? nextCron(from) : nextInterval(from);
		if (next == null || (this.spec.endAt() != null && !next.isBefore(this.spec.endAt()))) {
			return null;
		}
		return next;
	}

	private Instant nextCron(Instant after) {
		LocalDateTime local = after.atZone(this.spec.timeZone()).toLocalDateTime();
		// local times only grow: a time repeated by a fall-back maps to its first instant, which
		// lies before 'after' once fired, so it is passed over instead of firing twice
		for (int i = 0; i < 10_000; i++) {
			local = this.cron.next(local);
			if (local == null) {
				return null;
			}
			// a time in a spring-forward gap moves forward by the gap (02:30 becomes 03:30)
			Instant instant = ZonedDateTime.ofLocal(local, this.spec.timeZone(), null).toInstant();
			if (instant.isAfter(after)) {
				return instant;
			}
		}
		return null;
	}

	private Instant nextInterval(Instant after) {
		long interval = this.spec.interval().toMillis();
		long offset = this.spec.offset().toMillis();
		long k = Math.floorDiv(after.toEpochMilli() - offset, interval) + 1;
		return Instant.ofEpochMilli(k * interval + offset);
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
