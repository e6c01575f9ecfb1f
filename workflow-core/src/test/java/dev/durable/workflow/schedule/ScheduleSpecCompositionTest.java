package dev.durable.workflow.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.client.schedule.ScheduleCalendar;
import dev.durable.workflow.client.schedule.ScheduleClient;
import dev.durable.workflow.client.schedule.ScheduleDescription;
import dev.durable.workflow.client.schedule.ScheduleInterval;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.schedule.ScheduleFixtures.Tick;
import dev.durable.workflow.support.Engines;

import static dev.durable.workflow.schedule.ScheduleFixtures.workflowIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A spec of several cron expressions, structured calendars and intervals fires at the
 * union of their times, each time once, less the times of its skips, in its time zone;
 * bad specs are refused with a message that names the problem.
 */
class ScheduleSpecCompositionTest {

	private final Engines engines = new Engines();

	private ScheduleClient schedules;

	private WorkflowEngine engine;

	@AfterEach
	void close() {
		this.engines.close();
	}

	private void start() {
		this.engine = this.engines.start(this.engines.builder().register(Tick.class));
		this.schedules = this.engine.client().schedules();
	}

	private void create(String id, ScheduleSpec spec) {
		this.schedules.create(id,
				Schedule.of(spec, ScheduleAction.startWorkflow(Tick::run, id))
					.withOverlapPolicy(ScheduleOverlapPolicy.ALLOW_ALL)
					.withCatchupWindow(Duration.ofDays(1)));
	}

	private static List<Instant> instants(String... times) {
		List<Instant> result = new ArrayList<>();
		for (String time : times) {
			result.add(Instant.parse(time));
		}
		return result;
	}

	@Test
	void severalCalendarsAndIntervalsFireAtTheUnionOfTheirTimesEachOnce() {
		start();
		create("u",
				ScheduleSpec.builder()
					.cron("0 0 9 * * *")
					.calendar(ScheduleCalendar.builder().hour("9").minute("30").comment("half past nine").build())
					.interval(Duration.ofHours(6))
					.cron("0 12 * * *") // also a time of the interval: fires once
					.build());
		assertThat(this.schedules.describe("u").nextActionTimes()).isEqualTo(instants("2026-01-01T06:00:00Z",
				"2026-01-01T09:00:00Z", "2026-01-01T09:30:00Z", "2026-01-01T12:00:00Z", "2026-01-01T18:00:00Z"));
		for (int hour = 0; hour < 24; hour++) {
			this.engines.clock.advance(Duration.ofHours(1));
			EngineInternals.scheduleLoop(this.engine).tick();
		}
		await().until(() -> workflowIds(this.engines, "u").size() >= 6);
		assertThat(workflowIds(this.engines, "u")).containsExactly("u-2026-01-01T06:00:00Z", "u-2026-01-01T09:00:00Z",
				"u-2026-01-01T09:30:00Z", "u-2026-01-01T12:00:00Z", "u-2026-01-01T18:00:00Z", "u-2026-01-02T00:00:00Z");
		ScheduleDescription description = this.schedules.describe("u");
		assertThat(description.actionCount()).isEqualTo(6);
		assertThat(description.skippedCount()).isZero();
		assertThat(description.schedule().spec().calendars()).singleElement()
			.satisfies((calendar) -> assertThat(calendar.comment()).isEqualTo("half past nine"));
		assertThat(description.schedule().spec().cronExpressions()).containsExactly("0 0 9 * * *", "0 12 * * *");
	}

	@Test
	void skipsExcludeTheTimesTheyMatchFromEverySource() {
		start();
		create("s", ScheduleSpec.builder()
			.interval(Duration.ofHours(1))
			.cron("0 30 12 * * *") // inside the skipped hours: never fires
			.skip(ScheduleCalendar.builder().second("*").minute("*").hour("12-13").comment("lunch").build())
			.skipCron("0 0 3 * * *")
			.build());
		assertThat(this.schedules.describe("s").nextActionTimes()).isEqualTo(instants("2026-01-01T01:00:00Z",
				"2026-01-01T02:00:00Z", "2026-01-01T04:00:00Z", "2026-01-01T05:00:00Z", "2026-01-01T06:00:00Z"));
		List<Instant> backfilled = this.schedules
			.backfill("s", Instant.parse("2025-12-01T00:00:00Z"), Instant.parse("2025-12-02T00:00:00Z"))
			.stream()
			.map(ScheduleActionResult::nominalTime)
			.toList();
		List<Instant> expected = new ArrayList<>();
		for (int hour = 0; hour < 24; hour++) {
			if (hour != 3 && hour != 12 && hour != 13) {
				expected.add(Instant.parse("2025-12-01T00:00:00Z").plus(Duration.ofHours(hour)));
			}
		}
		assertThat(backfilled).isEqualTo(expected);
		// stepped past 14:00: 12:00, 12:30 and 13:00 are skipped, not counted as missed
		// or skipped
		this.engines.clock.advance(Duration.ofHours(14).plusMinutes(30));
		EngineInternals.scheduleLoop(this.engine).tick();
		await().until(() -> this.schedules.describe("s")
			.nextActionTimes()
			.get(0)
			.equals(Instant.parse("2026-01-01T15:00:00Z")));
		assertThat(workflowIds(this.engines, "s").stream().filter((id) -> id.startsWith("s-2026"))).containsExactly(
				"s-2026-01-01T01:00:00Z", "s-2026-01-01T02:00:00Z", "s-2026-01-01T04:00:00Z", "s-2026-01-01T05:00:00Z",
				"s-2026-01-01T06:00:00Z", "s-2026-01-01T07:00:00Z", "s-2026-01-01T08:00:00Z", "s-2026-01-01T09:00:00Z",
				"s-2026-01-01T10:00:00Z", "s-2026-01-01T11:00:00Z", "s-2026-01-01T14:00:00Z");
		assertThat(this.schedules.describe("s").missedCount()).isZero();
	}

	@Test
	void aSkipThatMatchesEveryTimeLeavesNothingToFire() {
		start();
		create("never", ScheduleSpec.every(Duration.ofHours(1)).toBuilder().skipCron("0 0 * * * *").build());
		assertThat(this.schedules.describe("never").nextActionTimes()).isEmpty();
		assertThat(this.schedules.list()).singleElement()
			.satisfies((summary) -> assertThat(summary.nextActionTime()).isNull());
	}

	@Test
	void calendarsAndSkipsUseTheSpecsTimeZoneAndIntervalsTheEpoch() {
		this.engines.clock.set(Instant.parse("2026-01-01T20:30:00Z"));
		start();
		// hour 0 in Berlin is 23:00 UTC in winter; 09:00 in Berlin is 08:00 UTC, also a
		// time of the interval
		ScheduleSpec berlin = ScheduleSpec.builder()
			.calendar(ScheduleCalendar.builder().hour("9").build())
			.interval(Duration.ofHours(1))
			.skip(ScheduleCalendar.builder().second("*").minute("*").hour("0").build())
			.timeZone("Europe/Berlin")
			.build();
		create("berlin", berlin);
		assertThat(this.schedules.describe("berlin").nextActionTimes()).isEqualTo(instants("2026-01-01T21:00:00Z",
				"2026-01-01T22:00:00Z", "2026-01-02T00:00:00Z", "2026-01-02T01:00:00Z", "2026-01-02T02:00:00Z"));
		create("utc", berlin.withTimeZone(ZoneId.of("UTC")));
		assertThat(this.schedules.describe("utc").nextActionTimes()).isEqualTo(instants("2026-01-01T21:00:00Z",
				"2026-01-01T22:00:00Z", "2026-01-01T23:00:00Z", "2026-01-02T01:00:00Z", "2026-01-02T02:00:00Z"));
		this.engines.clock.set(Instant.parse("2026-01-02T07:30:00Z"));
		EngineInternals.scheduleLoop(this.engine).tick();
		await().until(() -> this.schedules.describe("berlin")
			.nextActionTimes()
			.get(0)
			.equals(Instant.parse("2026-01-02T08:00:00Z")));
		assertThat(this.schedules.describe("berlin").nextActionTimes())
			.startsWith(instants("2026-01-02T08:00:00Z", "2026-01-02T09:00:00Z").toArray(Instant[]::new));
	}

	@Test
	void aStructuredCalendarTakesTemporalsDefaultsAndCompilesToCron() {
		assertThat(ScheduleCalendar.builder().build().toCron()).isEqualTo("0 0 0 * * *");
		ScheduleCalendar office = ScheduleCalendar.builder()
			.hour("9-17")
			.minute("*/15")
			.dayOfWeek("MON-FRI")
			.comment("office hours")
			.build();
		assertThat(office.toCron()).isEqualTo("0 */15 9-17 * * MON-FRI");
		assertThat(office.second()).isEqualTo("0");
		assertThat(office.comment()).isEqualTo("office hours");
		assertThat(new ScheduleCalendar(null, null, "6", null, null, null, null).toCron()).isEqualTo("0 0 6 * * *");
		assertThat(ScheduleCalendar.cron("30 6 * * 1-5"))
			.isEqualTo(ScheduleCalendar.builder().minute("30").hour("6").dayOfWeek("1-5").build());
		assertThat(ScheduleCalendar.cron("15 30 6 1 JAN *").toCron()).isEqualTo("15 30 6 1 JAN *");
		assertThat(ScheduleCalendar.cron("@hourly").toCron()).isEqualTo("0 0 * * * *");
		assertThat(ScheduleCalendar.cron("@daily")).isEqualTo(ScheduleCalendar.builder().build());

		// the one-source factories and their accessors work as before
		ScheduleSpec cron = ScheduleSpec.cron("0 2 * * *", ZoneId.of("Europe/Berlin"));
		assertThat(cron.cronExpression()).isEqualTo("0 2 * * *");
		assertThat(cron.interval()).isNull();
		assertThat(cron.offset()).isEqualTo(Duration.ZERO);
		ScheduleSpec every = ScheduleSpec.every(Duration.ofMinutes(10), Duration.ofMinutes(3));
		assertThat(every.interval()).isEqualTo(Duration.ofMinutes(10));
		assertThat(every.offset()).isEqualTo(Duration.ofMinutes(3));
		assertThat(every.cronExpression()).isNull();
		assertThat(every.intervals())
			.containsExactly(ScheduleInterval.of(Duration.ofMinutes(10), Duration.ofMinutes(3)));
		ScheduleSpec both = every.toBuilder().cron("0 2 * * *").build();
		assertThat(both.cronExpression()).isNull();
		assertThat(both.interval()).isNull();
	}

	@Test
	void badSpecsAreRefusedWithAMessageThatNamesTheProblem() {
		assertThatThrownBy(() -> ScheduleSpec.builder().build()).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("at least one cron expression, calendar or interval");
		assertThatThrownBy(() -> ScheduleSpec.builder().skipCron("0 0 3 * * *").build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("at least one");
		assertThatThrownBy(() -> ScheduleSpec.builder().cron("0 0 9 * * *").cron("every night").build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("'every night'");
		assertThatThrownBy(() -> ScheduleSpec.cron("CRON_TZ=Europe/Paris 0 2 * * *"))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("one time zone");
		assertThatThrownBy(() -> ScheduleCalendar.builder().hour("25").build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid schedule calendar")
			.hasMessageContaining("hour=25");
		assertThatThrownBy(() -> ScheduleCalendar.builder().hour("9 - 17").build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("hour")
			.hasMessageContaining("without spaces");
		assertThatThrownBy(() -> ScheduleCalendar.builder().dayOfWeek("").build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("dayOfWeek");
		assertThatThrownBy(() -> ScheduleCalendar.cron("0 0 * *")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("6 fields");
		assertThatThrownBy(() -> ScheduleSpec.builder().interval(Duration.ofHours(1)).skipCron("0 0 32 * *").build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Invalid schedule calendar");
		assertThatThrownBy(() -> ScheduleInterval.of(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("must be positive");
		assertThatThrownBy(() -> ScheduleInterval.of(Duration.ofMinutes(5), Duration.ofMinutes(5)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("offset");
		assertThatThrownBy(() -> new ScheduleSpec(List.of("0 0 9 * * *"), null, null,
				java.util.Arrays.asList((ScheduleCalendar) null), null, null, null, null))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("skip calendar must not be null");
		assertThatThrownBy(() -> ScheduleSpec.builder().cron("0 0 9 * * *").timeZone("Mars/Olympus_Mons").build())
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("Mars/Olympus_Mons");
		assertThatThrownBy(() -> ScheduleSpec.every(Duration.ofHours(1))
			.withStartAt(Instant.parse("2026-02-01T00:00:00Z"))
			.withEndAt(Instant.parse("2026-01-01T00:00:00Z"))).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("startAt");
	}

}
