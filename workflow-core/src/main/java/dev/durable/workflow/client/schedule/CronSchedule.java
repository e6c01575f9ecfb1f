package dev.durable.workflow.client.schedule;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

import org.jspecify.annotations.Nullable;
import org.springframework.scheduling.support.CronExpression;

import dev.durable.workflow.client.StartOptions;

/**
 * A cron expression as {@link StartOptions#cronSchedule()} and {@link ScheduleSpec} take
 * it: 5 fields (minute precision) or 6 (with seconds), optionally preceded by
 * {@code CRON_TZ=<zone id>} (UTC otherwise).
 */
public final class CronSchedule {

	private static final String ZONE_PREFIX = "CRON_TZ=";

	private final String expression;

	private final CronExpression fields;

	private CronSchedule(String expression, CronExpression fields) {
		this.expression = expression;
		this.fields = fields;
	}

	/**
	 * Parses the fields of an expression (the zone is checked by {@link #zone()}).
	 * @throws IllegalArgumentException when the fields are not a valid cron expression
	 */
	public static CronSchedule parse(String expression) {
		String trimmed = expression.trim();
		if (trimmed.startsWith(ZONE_PREFIX)) {
			String[] parts = trimmed.split("\\s+", 2);
			trimmed = (parts.length > 1) ? parts[1].trim() : "";
		}
		String withSeconds = (trimmed.split("\\s+").length == 5) ? "0 " + trimmed : trimmed;
		try {
			return new CronSchedule(expression, CronExpression.parse(withSeconds));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Invalid cron schedule '" + expression + "': " + ex.getMessage(), ex);
		}
	}

	/** The expression as given. */
	public String expression() {
		return this.expression;
	}

	/**
	 * The time zone of the expression: UTC unless it starts with
	 * {@code CRON_TZ=<zone id>}.
	 * @throws IllegalArgumentException for an unknown zone
	 */
	public ZoneId zone() {
		String trimmed = this.expression.trim();
		if (!trimmed.startsWith(ZONE_PREFIX)) {
			return ZoneOffset.UTC;
		}
		String id = trimmed.substring(ZONE_PREFIX.length()).split("\\s+", 2)[0];
		try {
			return ZoneId.of(id);
		}
		catch (DateTimeException ex) {
			throw new IllegalArgumentException(
					"Invalid time zone '" + id + "' in cron schedule '" + this.expression + "'", ex);
		}
	}

	/**
	 * The first time of the schedule after the instant, in the expression's zone (which
	 * decides what "9 o'clock" is, daylight-saving transitions included); {@code null}
	 * when there is none.
	 */
	public @Nullable Instant next(Instant after) {
		ZonedDateTime next = this.fields.next(after.atZone(zone()));
		return (next != null) ? next.toInstant() : null;
	}

	/**
	 * The first wall-clock time of the fields after the given one, whatever the
	 * expression's zone (for a caller that applies its own zone); {@code null} when there
	 * is none.
	 */
	public @Nullable LocalDateTime next(LocalDateTime after) {
		return this.fields.next(after);
	}

	@Override
	public String toString() {
		return this.expression;
	}

}
