package dev.durable.workflow.client.schedule;

import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A structured calendar of a {@link ScheduleSpec}: the times whose second, minute, hour,
 * day of the month, month and day of the week all match, in the spec's time zone. Each
 * field is one cron field (Spring's {@code CronExpression} syntax): a value ({@code "0"},
 * {@code "MON"}), a range ({@code "9-17"}, {@code "MON-FRI"}), a list ({@code "1,15"}), a
 * step (<code>"*&#47;15"</code>, {@code "0-30/10"}) or {@code "*"}. A field left out
 * takes Temporal's default: second, minute and hour {@code "0"}, the others {@code "*"},
 * so an empty calendar is midnight every day. <pre>{@code
 * ScheduleCalendar.builder().hour("9-17").minute("0,30").dayOfWeek("MON-FRI").comment("office hours").build()
 * ScheduleCalendar.cron("0 12 * * SAT,SUN")   // the fields of a cron expression, e.g. for a skip
 * }</pre> Days of the week count from Sunday, 0 (or 7), to Saturday, 6; months from 1 to
 * 12.
 *
 * @param second seconds, 0-59; {@code null}: {@code "0"}
 * @param minute minutes, 0-59; {@code null}: {@code "0"}
 * @param hour hours, 0-23; {@code null}: {@code "0"}
 * @param dayOfMonth days of the month, 1-31; {@code null}: {@code "*"}
 * @param month months, 1-12 or JAN-DEC; {@code null}: {@code "*"}
 * @param dayOfWeek days of the week, 0-7 or SUN-SAT; {@code null}: {@code "*"}
 * @param comment what the calendar is for, shown back by describe; {@code null}: none
 */
public record ScheduleCalendar(String second, String minute, String hour, String dayOfMonth, String month,
		String dayOfWeek, @Nullable String comment) {

	/** Spring's macros, as the six fields they stand for. */
	private static final Map<String, String> MACROS = Map.of("@yearly", "0 0 0 1 1 *", "@annually", "0 0 0 1 1 *",
			"@monthly", "0 0 0 1 * *", "@weekly", "0 0 0 * * 0", "@daily", "0 0 0 * * *", "@midnight", "0 0 0 * * *",
			"@hourly", "0 0 * * * *");

	/**
	 * The canonical constructor: a {@code null} field takes its default.
	 * @throws IllegalArgumentException when a field is blank, holds spaces, or the fields
	 * are not a valid cron expression
	 */
	public ScheduleCalendar(@Nullable String second, @Nullable String minute, @Nullable String hour,
			@Nullable String dayOfMonth, @Nullable String month, @Nullable String dayOfWeek, @Nullable String comment) {
		this.second = field("second", second, "0");
		this.minute = field("minute", minute, "0");
		this.hour = field("hour", hour, "0");
		this.dayOfMonth = field("dayOfMonth", dayOfMonth, "*");
		this.month = field("month", month, "*");
		this.dayOfWeek = field("dayOfWeek", dayOfWeek, "*");
		this.comment = comment;
		try {
			CronSchedule.parse(toCron());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid schedule calendar " + describe() + ": "
					+ ((ex.getCause() != null) ? ex.getCause().getMessage() : ex.getMessage()), ex);
		}
	}

	private static String field(String name, @Nullable String value, String fallback) {
		if (value == null) {
			return fallback;
		}
		String trimmed = value.trim();
		if (trimmed.isEmpty() || trimmed.chars().anyMatch(Character::isWhitespace)) {
			throw new IllegalArgumentException("The " + name + " of a schedule calendar must be one cron field"
					+ " without spaces (e.g. \"0\", \"9-17\", \"MON-FRI\", \"*/15\"), not '" + value + "'");
		}
		return trimmed;
	}

	/** A builder; every field starts at its default (midnight, every day). */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * The fields of a cron expression: 6 fields with seconds, 5 without (second 0), or
	 * one of Spring's macros ({@code @daily}, {@code @hourly}, ...). The time zone is the
	 * spec's, so {@code CRON_TZ=} is refused.
	 * @throws IllegalArgumentException when it is not such an expression
	 */
	public static ScheduleCalendar cron(String expression) {
		Objects.requireNonNull(expression, "expression");
		String trimmed = expression.trim();
		if (trimmed.startsWith("CRON_TZ=")) {
			throw new IllegalArgumentException("Invalid cron schedule '" + expression
					+ "': a schedule spec has one time zone for its calendars; set it on the spec, not with CRON_TZ=");
		}
		String fields = MACROS.getOrDefault(trimmed.toLowerCase(java.util.Locale.ROOT), trimmed);
		String[] parts = fields.isEmpty() ? new String[0] : fields.split("\\s+");
		if (parts.length == 5) {
			return new ScheduleCalendar("0", parts[0], parts[1], parts[2], parts[3], parts[4], null);
		}
		if (parts.length == 6) {
			return new ScheduleCalendar(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], null);
		}
		throw new IllegalArgumentException("Invalid cron schedule '" + expression
				+ "': give 6 fields (second minute hour day-of-month month day-of-week), or 5 without the second");
	}

	/** The six-field cron expression the calendar compiles to. */
	public String toCron() {
		return String.join(" ", this.second, this.minute, this.hour, this.dayOfMonth, this.month, this.dayOfWeek);
	}

	/** This calendar with another comment ({@code null}: none). */
	public ScheduleCalendar withComment(@Nullable String value) {
		return new ScheduleCalendar(this.second, this.minute, this.hour, this.dayOfMonth, this.month, this.dayOfWeek,
				value);
	}

	private String describe() {
		return "{second=" + this.second + ", minute=" + this.minute + ", hour=" + this.hour + ", dayOfMonth="
				+ this.dayOfMonth + ", month=" + this.month + ", dayOfWeek=" + this.dayOfWeek + "}";
	}

	/** Builds a {@link ScheduleCalendar}; a field not set keeps its default. */
	public static final class Builder {

		private @Nullable String second;

		private @Nullable String minute;

		private @Nullable String hour;

		private @Nullable String dayOfMonth;

		private @Nullable String month;

		private @Nullable String dayOfWeek;

		private @Nullable String comment;

		private Builder() {
		}

		/** Seconds, 0-59 (default {@code "0"}). */
		public Builder second(String value) {
			this.second = value;
			return this;
		}

		/** Minutes, 0-59 (default {@code "0"}). */
		public Builder minute(String value) {
			this.minute = value;
			return this;
		}

		/** Hours, 0-23 (default {@code "0"}). */
		public Builder hour(String value) {
			this.hour = value;
			return this;
		}

		/** Days of the month, 1-31 (default {@code "*"}). */
		public Builder dayOfMonth(String value) {
			this.dayOfMonth = value;
			return this;
		}

		/** Months, 1-12 or JAN-DEC (default {@code "*"}). */
		public Builder month(String value) {
			this.month = value;
			return this;
		}

		/**
		 * Days of the week, 0-7 (0 and 7 are Sunday) or SUN-SAT (default {@code "*"}).
		 */
		public Builder dayOfWeek(String value) {
			this.dayOfWeek = value;
			return this;
		}

		/** What the calendar is for. */
		public Builder comment(@Nullable String value) {
			this.comment = value;
			return this;
		}

		/**
		 * @throws IllegalArgumentException when the fields are not a valid calendar
		 */
		public ScheduleCalendar build() {
			return new ScheduleCalendar(this.second, this.minute, this.hour, this.dayOfMonth, this.month,
					this.dayOfWeek, this.comment);
		}

	}

}
