package dev.durable.workflow.client.schedule;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A schedule: when it fires, what it starts, and its policies. <pre>{@code
 * Schedule.of(ScheduleSpec.cron("0 2 * * *", ZoneId.of("Europe/Berlin")),
 *         ScheduleAction.startWorkflow(ReportWorkflow::run, request))
 *     .withOverlapPolicy(ScheduleOverlapPolicy.BUFFER_ONE)
 * }</pre>
 *
 * @param spec when it fires
 * @param action what it starts
 * @param overlapPolicy what a firing does while an earlier workflow of the schedule runs;
 * {@code null}: {@link ScheduleOverlapPolicy#SKIP}
 * @param catchupWindow after the engine was down (or every worker was), firings late by
 * more than this are skipped (counted as missed); {@code null}:
 * {@link #DEFAULT_CATCHUP_WINDOW}
 * @param paused whether it is paused (no firing until unpaused; triggers and backfills
 * still work)
 * @param note why it was paused, or any note; {@code null}: none
 * @param remainingActions limited actions: how many more workflows the spec's times may
 * start (each start of a scheduled firing counts one; at zero the schedule takes no more
 * scheduled actions, while triggers and backfills still start and do not count);
 * {@code null}: unlimited. Describe shows what remains; an update may give more.
 */
public record Schedule(ScheduleSpec spec, ScheduleAction action, ScheduleOverlapPolicy overlapPolicy,
		Duration catchupWindow, boolean paused, @Nullable String note, @Nullable Long remainingActions) {

	/** One minute. */
	public static final Duration DEFAULT_CATCHUP_WINDOW = Duration.ofMinutes(1);

	/**
	 * The canonical constructor; a {@code null} overlap policy is
	 * {@link ScheduleOverlapPolicy#SKIP}, a {@code null} catch-up window
	 * {@link #DEFAULT_CATCHUP_WINDOW}.
	 * @throws IllegalArgumentException for a negative catch-up window or remaining
	 * actions
	 */
	public Schedule(ScheduleSpec spec, ScheduleAction action, @Nullable ScheduleOverlapPolicy overlapPolicy,
			@Nullable Duration catchupWindow, boolean paused, @Nullable String note, @Nullable Long remainingActions) {
		Objects.requireNonNull(spec, "spec");
		Objects.requireNonNull(action, "action");
		overlapPolicy = (overlapPolicy != null) ? overlapPolicy : ScheduleOverlapPolicy.SKIP;
		catchupWindow = (catchupWindow != null) ? catchupWindow : DEFAULT_CATCHUP_WINDOW;
		if (catchupWindow.isNegative()) {
			throw new IllegalArgumentException("The catch-up window must not be negative: " + catchupWindow);
		}
		if (remainingActions != null && remainingActions < 0) {
			throw new IllegalArgumentException(
					"The remaining actions of a schedule must not be negative: " + remainingActions);
		}
		this.spec = spec;
		this.action = action;
		this.overlapPolicy = overlapPolicy;
		this.catchupWindow = catchupWindow;
		this.paused = paused;
		this.note = note;
		this.remainingActions = remainingActions;
	}

	/**
	 * A schedule with unlimited actions (the constructor of the record before limited
	 * actions).
	 */
	public Schedule(ScheduleSpec spec, ScheduleAction action, @Nullable ScheduleOverlapPolicy overlapPolicy,
			@Nullable Duration catchupWindow, boolean paused, @Nullable String note) {
		this(spec, action, overlapPolicy, catchupWindow, paused, note, null);
	}

	/** An unpaused schedule with the default policies. */
	public static Schedule of(ScheduleSpec spec, ScheduleAction action) {
		return new Schedule(spec, action, null, null, false, null, null);
	}

	public Schedule withSpec(ScheduleSpec value) {
		return new Schedule(value, this.action, this.overlapPolicy, this.catchupWindow, this.paused, this.note,
				this.remainingActions);
	}

	public Schedule withAction(ScheduleAction value) {
		return new Schedule(this.spec, value, this.overlapPolicy, this.catchupWindow, this.paused, this.note,
				this.remainingActions);
	}

	/** This schedule with another overlap policy ({@code null}: SKIP). */
	public Schedule withOverlapPolicy(@Nullable ScheduleOverlapPolicy value) {
		return new Schedule(this.spec, this.action, value, this.catchupWindow, this.paused, this.note,
				this.remainingActions);
	}

	/**
	 * This schedule with another catch-up window ({@code null}:
	 * {@link #DEFAULT_CATCHUP_WINDOW}).
	 */
	public Schedule withCatchupWindow(@Nullable Duration value) {
		return new Schedule(this.spec, this.action, this.overlapPolicy, value, this.paused, this.note,
				this.remainingActions);
	}

	/** This schedule paused (or not), with a note saying why ({@code null}: no note). */
	public Schedule withPaused(boolean value, @Nullable String reason) {
		return new Schedule(this.spec, this.action, this.overlapPolicy, this.catchupWindow, value, reason,
				this.remainingActions);
	}

	/**
	 * This schedule with limited actions: the spec's times start at most this many more
	 * workflows (zero: none; triggers and backfills do not count).
	 */
	public Schedule withRemainingActions(long value) {
		return new Schedule(this.spec, this.action, this.overlapPolicy, this.catchupWindow, this.paused, this.note,
				value);
	}

	/** This schedule with unlimited actions. */
	public Schedule withUnlimitedActions() {
		return new Schedule(this.spec, this.action, this.overlapPolicy, this.catchupWindow, this.paused, this.note,
				null);
	}

}
