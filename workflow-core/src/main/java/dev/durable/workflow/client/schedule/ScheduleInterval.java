package dev.durable.workflow.client.schedule;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A fixed interval of a {@link ScheduleSpec}, counted from the Unix epoch plus the
 * offset, in UTC whatever the spec's time zone:
 * {@code ScheduleInterval.of(Duration.ofHours(1),
 * Duration.ofMinutes(15))} fires at a quarter past every hour.
 *
 * @param every the interval; positive, whole milliseconds
 * @param offset the phase (zero or more, less than the interval); {@code null}: zero
 */
public record ScheduleInterval(Duration every, Duration offset) {

	/**
	 * The canonical constructor; a {@code null} offset is zero.
	 * @throws IllegalArgumentException when the interval is not positive or the offset
	 * not within it
	 */
	public ScheduleInterval(Duration every, @Nullable Duration offset) {
		if (every == null || every.isNegative() || every.isZero() || every.toMillis() == 0) {
			throw new IllegalArgumentException("The interval of a schedule must be positive (at least 1 ms): " + every);
		}
		offset = (offset != null) ? offset : Duration.ZERO;
		if (offset.isNegative() || offset.compareTo(every) >= 0) {
			throw new IllegalArgumentException("The offset of a schedule interval must be zero or more and less than"
					+ " its interval " + every + ": " + offset);
		}
		this.every = every;
		this.offset = offset;
	}

	/** Every interval, counted from the Unix epoch. */
	public static ScheduleInterval of(Duration every) {
		return new ScheduleInterval(Objects.requireNonNull(every, "every"), Duration.ZERO);
	}

	/** Every interval, counted from the Unix epoch plus the offset. */
	public static ScheduleInterval of(Duration every, Duration offset) {
		return new ScheduleInterval(Objects.requireNonNull(every, "every"), offset);
	}

}
