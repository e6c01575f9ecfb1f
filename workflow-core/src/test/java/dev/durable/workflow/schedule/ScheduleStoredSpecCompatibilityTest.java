package dev.durable.workflow.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
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
import static org.awaitility.Awaitility.await;

/**
 * Schedules stored before specs could combine sources and before limited actions (one
 * {@code cronExpression} or one {@code interval} with its {@code offset}; a state without
 * remaining actions) still read, fire, and are rewritten in the new form by an update.
 */
class ScheduleStoredSpecCompatibilityTest {

	private final Engines engines = new Engines();

	private WorkflowEngine engine;

	private ScheduleClient schedules;

	@AfterEach
	void close() {
		this.engines.close();
	}

	private void start() {
		this.engine = this.engines.start(this.engines.builder().register(Tick.class));
		this.schedules = this.engine.client().schedules();
	}

	/**
	 * Creates a schedule, then puts the spec and state JSON the earlier code wrote in its
	 * row.
	 */
	private void storeOldForm(String scheduleId, String specJson) {
		this.schedules.create(scheduleId,
				Schedule
					.of(ScheduleSpec.every(Duration.ofDays(365)), ScheduleAction.startWorkflow(Tick::run, scheduleId))
					.withOverlapPolicy(ScheduleOverlapPolicy.ALLOW_ALL)
					.withCatchupWindow(Duration.ofDays(1)));
		String state = "{\"cursor\":\"2026-01-01T00:00:00Z\",\"buffer\":[],\"actions\":0,\"skipped\":0,\"missed\":0}";
		assertThat(this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".schedule SET spec = ?::jsonb, state = ?::jsonb,"
					+ " next_run_at = NULL WHERE schedule_id = ?", specJson, state, scheduleId))
			.isEqualTo(1);
	}

	@Test
	void anOldCronSpecReadsAsOneCronExpressionAndFires() {
		start();
		// exactly what the single-source ScheduleSpec serialized to
		storeOldForm("old-cron", "{\"cronExpression\":\"0 2 * * *\",\"offset\":\"PT0S\",\"timeZone\":\"Europe/Berlin\","
				+ "\"startAt\":\"2026-01-01T00:00:00Z\",\"jitter\":\"PT0S\"}");
		ScheduleDescription description = this.schedules.describe("old-cron");
		ScheduleSpec spec = description.schedule().spec();
		assertThat(spec.cronExpressions()).containsExactly("0 2 * * *");
		assertThat(spec.cronExpression()).isEqualTo("0 2 * * *");
		assertThat(spec.intervals()).isEmpty();
		assertThat(spec.timeZone()).isEqualTo(ZoneId.of("Europe/Berlin"));
		assertThat(spec.startAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
		assertThat(description.remainingActions()).isNull();
		// 02:00 in Berlin is 01:00 UTC
		assertThat(description.nextActionTimes()).startsWith(Instant.parse("2026-01-01T01:00:00Z"));
		// an update (here: a pause and an unpause) stores the new form, which reads back
		// the same
		this.schedules.pause("old-cron", null);
		this.schedules.unpause("old-cron", null);
		assertThat(this.schedules.describe("old-cron").schedule().spec()).isEqualTo(spec);
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT spec->>'cronExpression' FROM " + this.engines.schema
					+ ".schedule WHERE schedule_id = 'old-cron'", String.class))
			.isNull();
		this.engines.clock.advance(Duration.ofHours(1));
		EngineInternals.scheduleLoop(this.engine).tick();
		await().until(() -> workflowIds(this.engines, "old-cron").contains("old-cron-2026-01-01T01:00:00Z"));
	}

	@Test
	void anOldIntervalSpecReadsAsOneIntervalWithItsOffsetAndFires() {
		start();
		storeOldForm("old-every", "{\"interval\":\"PT10M\",\"offset\":\"PT3M\",\"timeZone\":\"UTC\"}");
		ScheduleSpec spec = this.schedules.describe("old-every").schedule().spec();
		assertThat(spec.intervals())
			.containsExactly(ScheduleInterval.of(Duration.ofMinutes(10), Duration.ofMinutes(3)));
		assertThat(spec.interval()).isEqualTo(Duration.ofMinutes(10));
		assertThat(spec.offset()).isEqualTo(Duration.ofMinutes(3));
		assertThat(spec.cronExpressions()).isEmpty();
		assertThat(this.schedules.describe("old-every").nextActionTimes())
			.startsWith(Instant.parse("2026-01-01T00:03:00Z"), Instant.parse("2026-01-01T00:13:00Z"));
		// the loop steps a row with an old state (no remaining actions: unlimited)
		this.engines.jdbc()
			.update("UPDATE " + this.engines.schema + ".schedule SET next_run_at = ?"
					+ " WHERE schedule_id = 'old-every'",
					java.sql.Timestamp.from(Instant.parse("2026-01-01T00:03:00Z")));
		this.engines.clock.advance(Duration.ofMinutes(14));
		EngineInternals.scheduleLoop(this.engine).tick();
		await().until(() -> workflowIds(this.engines, "old-every").size() == 2);
		assertThat(workflowIds(this.engines, "old-every")).containsExactly("old-every-2026-01-01T00:03:00Z",
				"old-every-2026-01-01T00:13:00Z");
	}

	@Test
	void anOldCronSpecWithCronTzReadsInTheSpecsZoneAsBefore() {
		start();
		// the single-source spec evaluated the fields in its time zone and ignored the
		// prefix
		storeOldForm("old-tz", "{\"cronExpression\":\"CRON_TZ=Asia/Tokyo 0 0 9 * * *\",\"offset\":\"PT0S\","
				+ "\"timeZone\":\"UTC\"}");
		ScheduleDescription description = this.schedules.describe("old-tz");
		assertThat(description.schedule().spec().cronExpressions()).containsExactly("0 0 9 * * *");
		assertThat(description.nextActionTimes()).startsWith(Instant.parse("2026-01-01T09:00:00Z"));
		assertThat(this.schedules.list()).extracting((summary) -> summary.scheduleId()).contains("old-tz");
	}

}
