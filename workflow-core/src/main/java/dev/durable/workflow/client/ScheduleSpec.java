package dev.durable.workflow.client;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;

import org.jspecify.annotations.Nullable;


/**
 * When a schedule fires: either a cron expression in a time zone, or a fixed interval.
 * <p>
 * Cron expressions are Spring's ({@code CronExpression}): 6 fields with seconds, or 5 fields
 * (minute precision, like Unix cron). They are evaluated in wall-clock time of the time zone:
 * each local time fires once. A time skipped by a daylight-saving jump forward fires as late as
 * the jump (02:30 becomes 03:30); in the hour repeated when clocks go back, only the first
 * pass fires.
 * <p>
 * Intervals count from the Unix epoch, plus the offset: {@code every(Duration.ofHours(1),
 * Duration.ofMinutes(15))} fires at a quarter past every hour, UTC.
 *
 * @param cronExpression a cron expression, or {@code null} for an interval
 * @param interval the interval, or {@code null} for a cron expression; positive, whole milliseconds
 * @param offset the phase of the interval (zero or more, less than the interval); {@code null}: zero
 * @param timeZone the zone of the cron expression; {@code null}: UTC
 * @param startAt no firing before this instant; {@code null}: no bound
 * @param endAt no firing at or after this instant; {@code null}: no bound
 * @param jitter each firing is delayed by a random amount below this (the same for a given
 * schedule and time, so every node agrees); {@code null}: none
 */
public record ScheduleSpec(@Nullable String cronExpression, @Nullable Duration interval, Duration offset,
		ZoneId timeZone, @Nullable Instant startAt, @Nullable Instant endAt, @Nullable Duration jitter) {

	/** The zone used when none is given. */
	public static final ZoneId UTC = ZoneId.of("UTC");

	/** The canonical constructor; a {@code null} offset is zero, a {@code null} time zone UTC. */
	public ScheduleSpec(@Nullable String cronExpression, @Nullable Duration interval, @Nullable Duration offset,
			@Nullable ZoneId timeZone, @Nullable Instant startAt, @Nullable Instant endAt, @Nullable Duration jitter) {
		if ((cronExpression == null) == (interval == null)) {
			throw new IllegalArgumentException("A schedule spec needs exactly one of a cron expression or an interval");
		}
		if (cronExpression != null) {
			CronSchedule.parse(cronExpression);
		}
		if (interval != null && (interval.isNegative() || interval.isZero() || interval.toMillis() == 0)) {
			throw new IllegalArgumentException("The interval of a schedule must be positive: " + interval);
		}
		offset = (offset != null) ? offset : Duration.ZERO;
		if (offset.isNegative() || (interval != null && offset.compareTo(interval) >= 0)) {
			throw new IllegalArgumentException(
					"The offset of a schedule must be zero or more and less than its interval: " + offset);
		}
		timeZone = (timeZone != null) ? timeZone : UTC;
		if (startAt != null && endAt != null && !startAt.isBefore(endAt)) {
			throw new IllegalArgumentException("A schedule's startAt " + startAt + " must be before its endAt " + endAt);
		}
		if (jitter != null && jitter.isNegative()) {
			throw new IllegalArgumentException("The jitter of a schedule must not be negative: " + jitter);
		}
		this.cronExpression = cronExpression;
		this.interval = interval;
		this.offset = offset;
		this.timeZone = timeZone;
		this.startAt = startAt;
		this.endAt = endAt;
		this.jitter = jitter;
	}

	/** A cron expression (6 fields, or 5 without seconds) in UTC. */
	public static ScheduleSpec cron(String cronExpression) {
		return cron(cronExpression, UTC);
	}

	/** A cron expression (6 fields, or 5 without seconds) in the given time zone. */
	public static ScheduleSpec cron(String cronExpression, ZoneId timeZone) {
		Objects.requireNonNull(cronExpression, "cronExpression");
		return new ScheduleSpec(cronExpression, null, null, timeZone, null, null, null);
	}

	/** Every interval, counted from the Unix epoch. */
	public static ScheduleSpec every(Duration interval) {
		return every(interval, Duration.ZERO);
	}

	/** Every interval, counted from the Unix epoch plus the offset. */
	public static ScheduleSpec every(Duration interval, Duration offset) {
		Objects.requireNonNull(interval, "interval");
		return new ScheduleSpec(null, interval, offset, null, null, null, null);
	}

	/** This spec in another time zone (cron only). */
	public ScheduleSpec withTimeZone(ZoneId zone) {
		return new ScheduleSpec(this.cronExpression, this.interval, this.offset, zone, this.startAt, this.endAt,
				this.jitter);
	}

	/** This spec in another time zone, by id such as {@code Europe/Berlin}. */
	public ScheduleSpec withTimeZone(String zoneId) {
		try {
			return withTimeZone(ZoneId.of(zoneId));
		}
		catch (DateTimeException | NullPointerException ex) {
			throw new IllegalArgumentException("Invalid time zone '" + zoneId + "': " + ex.getMessage(), ex);
		}
	}

	/** This spec, firing no earlier than the instant ({@code null}: no bound). */
	public ScheduleSpec withStartAt(@Nullable Instant value) {
		return new ScheduleSpec(this.cronExpression, this.interval, this.offset, this.timeZone, value, this.endAt,
				this.jitter);
	}

	/** This spec, firing only before the instant ({@code null}: no bound). */
	public ScheduleSpec withEndAt(@Nullable Instant value) {
		return new ScheduleSpec(this.cronExpression, this.interval, this.offset, this.timeZone, this.startAt, value,
				this.jitter);
	}

	/** This spec, each firing delayed by a random amount below the jitter ({@code null}: none). */
	public ScheduleSpec withJitter(@Nullable Duration value) {
		return new ScheduleSpec(this.cronExpression, this.interval, this.offset, this.timeZone, this.startAt,
				this.endAt, value);
	}

}
