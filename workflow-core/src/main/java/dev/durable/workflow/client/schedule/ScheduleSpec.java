package dev.durable.workflow.client.schedule;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * When a schedule fires: the union of the times of its cron expressions, structured
 * calendars and intervals (a time two of them match fires once), less the times a
 * {@code skip} calendar matches, within {@code [startAt, endAt)}. <pre>{@code
 * ScheduleSpec.builder()
 *     .cron("0 30 2 * * *")                                        // 02:30 every night
 *     .calendar(ScheduleCalendar.builder().hour("9-17").minute("30").dayOfWeek("MON-FRI").build())
 *     .interval(Duration.ofHours(4), Duration.ofMinutes(5))        // 00:05, 04:05, ... UTC
 *     .skipCron("* * * 25 12 *")                                   // nothing on Christmas day
 *     .timeZone("Europe/Berlin")
 *     .build();
 * }</pre>
 * <p>
 * Cron expressions are Spring's ({@code CronExpression}): 6 fields with seconds, or 5
 * fields (minute precision, like Unix cron). They, the structured calendars and the skips
 * are evaluated in wall-clock time of the spec's one time zone: each local time fires
 * once. A time skipped by a daylight-saving jump forward fires as late as the jump (02:30
 * becomes 03:30); in the hour repeated when clocks go back, only the first pass fires. A
 * skip matches the local time a firing would happen at.
 * <p>
 * Intervals count from the Unix epoch, plus their offset, whatever the time zone:
 * {@code every(Duration.ofHours(1), Duration.ofMinutes(15))} fires at a quarter past
 * every hour.
 * <p>
 * Skips are checked time by time: skips that exclude more than 10,000 consecutive times
 * of the spec (a calendar every minute skipped for a week) end the schedule there (with a
 * warning in the log).
 *
 * @param cronExpressions cron expressions, kept as given; {@code null}: none
 * @param calendars structured calendars; {@code null}: none
 * @param intervals intervals; {@code null}: none
 * @param skip calendars whose times do not fire; {@code null}: none
 * @param timeZone the zone of the cron expressions, calendars and skips; {@code null}:
 * UTC
 * @param startAt no firing before this instant; {@code null}: no bound
 * @param endAt no firing at or after this instant; {@code null}: no bound
 * @param jitter each firing is delayed by a random amount below this (the same for a
 * given schedule and time, so every node agrees); {@code null}: none
 */
public record ScheduleSpec(List<String> cronExpressions, List<ScheduleCalendar> calendars,
		List<ScheduleInterval> intervals, List<ScheduleCalendar> skip, ZoneId timeZone, @Nullable Instant startAt,
		@Nullable Instant endAt, @Nullable Duration jitter) {

	/** The zone used when none is given. */
	public static final ZoneId UTC = ZoneId.of("UTC");

	/**
	 * The canonical constructor; {@code null} lists are empty, a {@code null} time zone
	 * is UTC.
	 * @throws IllegalArgumentException when there is no cron expression, calendar or
	 * interval, an expression does not parse, or the bounds or jitter are invalid
	 */
	public ScheduleSpec(@Nullable List<String> cronExpressions, @Nullable List<ScheduleCalendar> calendars,
			@Nullable List<ScheduleInterval> intervals, @Nullable List<ScheduleCalendar> skip,
			@Nullable ZoneId timeZone, @Nullable Instant startAt, @Nullable Instant endAt, @Nullable Duration jitter) {
		cronExpressions = copy(cronExpressions, "cron expression");
		calendars = copy(calendars, "calendar");
		intervals = copy(intervals, "interval");
		skip = copy(skip, "skip calendar");
		if (cronExpressions.isEmpty() && calendars.isEmpty() && intervals.isEmpty()) {
			throw new IllegalArgumentException(
					"A schedule spec needs at least one cron expression, calendar or interval");
		}
		for (String expression : cronExpressions) {
			if (expression.trim().startsWith("CRON_TZ=")) {
				throw new IllegalArgumentException("Invalid cron schedule '" + expression + "': a schedule spec has"
						+ " one time zone for its calendars; set it on the spec, not with CRON_TZ=");
			}
			CronSchedule.parse(expression);
		}
		timeZone = (timeZone != null) ? timeZone : UTC;
		if (startAt != null && endAt != null && !startAt.isBefore(endAt)) {
			throw new IllegalArgumentException(
					"A schedule's startAt " + startAt + " must be before its endAt " + endAt);
		}
		if (jitter != null && jitter.isNegative()) {
			throw new IllegalArgumentException("The jitter of a schedule must not be negative: " + jitter);
		}
		this.cronExpressions = cronExpressions;
		this.calendars = calendars;
		this.intervals = intervals;
		this.skip = skip;
		this.timeZone = timeZone;
		this.startAt = startAt;
		this.endAt = endAt;
		this.jitter = jitter;
	}

	/**
	 * The constructor of the single-source spec this record used to be: a cron expression
	 * or an interval with its offset (both: their union).
	 * @deprecated use {@link #cron}, {@link #every} or {@link #builder()}
	 */
	@Deprecated
	public ScheduleSpec(@Nullable String cronExpression, @Nullable Duration interval, @Nullable Duration offset,
			@Nullable ZoneId timeZone, @Nullable Instant startAt, @Nullable Instant endAt, @Nullable Duration jitter) {
		this((cronExpression != null) ? List.of(cronExpression) : List.of(), List.of(),
				(interval != null) ? List.of(new ScheduleInterval(interval, offset)) : List.of(), List.of(), timeZone,
				startAt, endAt, jitter);
	}

	private static <T> List<T> copy(@Nullable List<T> values, String what) {
		if (values == null) {
			return List.of();
		}
		for (T value : values) {
			if (value == null) {
				throw new IllegalArgumentException("A schedule spec's " + what + " must not be null");
			}
		}
		return List.copyOf(values);
	}

	/** A cron expression (6 fields, or 5 without seconds) in UTC. */
	public static ScheduleSpec cron(String cronExpression) {
		return cron(cronExpression, UTC);
	}

	/** A cron expression (6 fields, or 5 without seconds) in the given time zone. */
	public static ScheduleSpec cron(String cronExpression, ZoneId timeZone) {
		Objects.requireNonNull(cronExpression, "cronExpression");
		return new ScheduleSpec(List.of(cronExpression), null, null, null, timeZone, null, null, null);
	}

	/** Every interval, counted from the Unix epoch. */
	public static ScheduleSpec every(Duration interval) {
		return every(interval, Duration.ZERO);
	}

	/** Every interval, counted from the Unix epoch plus the offset. */
	public static ScheduleSpec every(Duration interval, Duration offset) {
		Objects.requireNonNull(interval, "interval");
		return new ScheduleSpec(null, null, List.of(new ScheduleInterval(interval, offset)), null, null, null, null,
				null);
	}

	/**
	 * A builder of a spec with several cron expressions, calendars, intervals and skips.
	 */
	public static Builder builder() {
		return new Builder();
	}

	/** A builder holding this spec, to add to it. */
	public Builder toBuilder() {
		Builder builder = new Builder();
		builder.cronExpressions.addAll(this.cronExpressions);
		builder.calendars.addAll(this.calendars);
		builder.intervals.addAll(this.intervals);
		builder.skip.addAll(this.skip);
		builder.timeZone = this.timeZone;
		builder.startAt = this.startAt;
		builder.endAt = this.endAt;
		builder.jitter = this.jitter;
		return builder;
	}

	/**
	 * The cron expression of a spec that is one cron expression and nothing else (as
	 * {@link #cron} makes); otherwise {@code null}.
	 */
	public @Nullable String cronExpression() {
		return (this.cronExpressions.size() == 1 && this.calendars.isEmpty() && this.intervals.isEmpty())
				? this.cronExpressions.get(0) : null;
	}

	/**
	 * The interval of a spec that is one interval and nothing else (as {@link #every}
	 * makes); otherwise {@code null}.
	 */
	public @Nullable Duration interval() {
		return single().map(ScheduleInterval::every).orElse(null);
	}

	/** The offset of a spec that is one interval and nothing else; otherwise zero. */
	public Duration offset() {
		return single().map(ScheduleInterval::offset).orElse(Duration.ZERO);
	}

	private java.util.Optional<ScheduleInterval> single() {
		return (this.intervals.size() == 1 && this.cronExpressions.isEmpty() && this.calendars.isEmpty())
				? java.util.Optional.of(this.intervals.get(0)) : java.util.Optional.empty();
	}

	/** This spec in another time zone (for its cron expressions, calendars and skips). */
	public ScheduleSpec withTimeZone(ZoneId zone) {
		return toBuilder().timeZone(zone).build();
	}

	/** This spec in another time zone, by id such as {@code Europe/Berlin}. */
	public ScheduleSpec withTimeZone(String zoneId) {
		return toBuilder().timeZone(zoneId).build();
	}

	/** This spec, firing no earlier than the instant ({@code null}: no bound). */
	public ScheduleSpec withStartAt(@Nullable Instant value) {
		return toBuilder().startAt(value).build();
	}

	/** This spec, firing only before the instant ({@code null}: no bound). */
	public ScheduleSpec withEndAt(@Nullable Instant value) {
		return toBuilder().endAt(value).build();
	}

	/**
	 * This spec, each firing delayed by a random amount below the jitter ({@code null}:
	 * none).
	 */
	public ScheduleSpec withJitter(@Nullable Duration value) {
		return toBuilder().jitter(value).build();
	}

	/**
	 * Builds a {@link ScheduleSpec}; each call of {@code cron}, {@code calendar},
	 * {@code interval} and {@code skip} adds one.
	 */
	public static final class Builder {

		private final List<String> cronExpressions = new ArrayList<>();

		private final List<ScheduleCalendar> calendars = new ArrayList<>();

		private final List<ScheduleInterval> intervals = new ArrayList<>();

		private final List<ScheduleCalendar> skip = new ArrayList<>();

		private @Nullable ZoneId timeZone;

		private @Nullable Instant startAt;

		private @Nullable Instant endAt;

		private @Nullable Duration jitter;

		private Builder() {
		}

		/** Adds a cron expression (6 fields, or 5 without seconds). */
		public Builder cron(String expression) {
			this.cronExpressions.add(Objects.requireNonNull(expression, "expression"));
			return this;
		}

		/** Adds a structured calendar. */
		public Builder calendar(ScheduleCalendar calendar) {
			this.calendars.add(Objects.requireNonNull(calendar, "calendar"));
			return this;
		}

		/** Adds an interval counted from the Unix epoch. */
		public Builder interval(Duration every) {
			return interval(ScheduleInterval.of(every));
		}

		/** Adds an interval counted from the Unix epoch plus the offset. */
		public Builder interval(Duration every, Duration offset) {
			return interval(ScheduleInterval.of(every, offset));
		}

		/** Adds an interval. */
		public Builder interval(ScheduleInterval interval) {
			this.intervals.add(Objects.requireNonNull(interval, "interval"));
			return this;
		}

		/** Adds a calendar whose times do not fire. */
		public Builder skip(ScheduleCalendar calendar) {
			this.skip.add(Objects.requireNonNull(calendar, "calendar"));
			return this;
		}

		/**
		 * Adds a cron expression whose times do not fire ({@link ScheduleCalendar#cron}).
		 */
		public Builder skipCron(String expression) {
			return skip(ScheduleCalendar.cron(expression));
		}

		/** The zone of the cron expressions, calendars and skips ({@code null}: UTC). */
		public Builder timeZone(@Nullable ZoneId zone) {
			this.timeZone = zone;
			return this;
		}

		/**
		 * The zone by id, such as {@code Europe/Berlin}.
		 * @throws IllegalArgumentException for an unknown zone
		 */
		public Builder timeZone(String zoneId) {
			try {
				return timeZone(ZoneId.of(zoneId));
			}
			catch (DateTimeException | NullPointerException ex) {
				throw new IllegalArgumentException("Invalid time zone '" + zoneId + "': " + ex.getMessage(), ex);
			}
		}

		/** No firing before the instant ({@code null}: no bound). */
		public Builder startAt(@Nullable Instant value) {
			this.startAt = value;
			return this;
		}

		/** No firing at or after the instant ({@code null}: no bound). */
		public Builder endAt(@Nullable Instant value) {
			this.endAt = value;
			return this;
		}

		/** Each firing delayed by a random amount below this ({@code null}: none). */
		public Builder jitter(@Nullable Duration value) {
			this.jitter = value;
			return this;
		}

		/**
		 * @throws IllegalArgumentException when the spec is invalid (see the record's
		 * constructor)
		 */
		public ScheduleSpec build() {
			return new ScheduleSpec(this.cronExpressions, this.calendars, this.intervals, this.skip, this.timeZone,
					this.startAt, this.endAt, this.jitter);
		}

	}

}
