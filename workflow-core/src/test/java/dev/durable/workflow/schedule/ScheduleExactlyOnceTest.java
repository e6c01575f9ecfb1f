package dev.durable.workflow.schedule;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.durable.workflow.client.schedule.Schedule;
import dev.durable.workflow.client.schedule.ScheduleAction;
import dev.durable.workflow.client.schedule.ScheduleActionResult;
import dev.durable.workflow.client.schedule.ScheduleOverlapPolicy;
import dev.durable.workflow.client.schedule.ScheduleSpec;
import dev.durable.workflow.engine.EngineInternals;
import dev.durable.workflow.engine.WorkflowEngine;
import dev.durable.workflow.internal.schedule.ScheduleLoop;
import dev.durable.workflow.internal.schedule.ScheduleRow;
import dev.durable.workflow.schedule.ScheduleFixtures.Tick;
import dev.durable.workflow.support.Engines;

import static dev.durable.workflow.schedule.ScheduleFixtures.runs;
import static dev.durable.workflow.schedule.ScheduleFixtures.workflowIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each firing starts exactly once: two engines on one database and clock, racing loops,
 * stale steps replayed, repeated backfills. Also daylight-saving transitions.
 */
class ScheduleExactlyOnceTest {

	private final Engines engines = new Engines();

	@AfterEach
	void close() {
		this.engines.close();
	}

	private WorkflowEngine startEngine() {
		return this.engines.start(this.engines.builder().register(Tick.class));
	}

	private static Schedule everyMinute() {
		return Schedule.of(ScheduleSpec.every(Duration.ofMinutes(1)), ScheduleAction.startWorkflow(Tick::run, "e"))
			.withOverlapPolicy(ScheduleOverlapPolicy.ALLOW_ALL);
	}

	private void assertOneRunPerWorkflowId(String prefix, int expected) {
		List<Map<String, Object>> runs = runs(this.engines, prefix);
		assertThat(runs).hasSize(expected);
		assertThat(runs.stream().map((r) -> r.get("workflow_id")).distinct()).hasSize(expected);
	}

	@Test
	void twoEnginesRacingStartEveryTimeOnce() throws Exception {
		WorkflowEngine a = startEngine();
		WorkflowEngine b = startEngine();
		a.client().schedules().create("race", everyMinute());
		ScheduleLoop loopA = EngineInternals.scheduleLoop(a);
		ScheduleLoop loopB = EngineInternals.scheduleLoop(b);
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService threads = Executors.newFixedThreadPool(4);
		List<Future<?>> racers = new ArrayList<>();
		// besides both background loops, four threads step both engines as fast as they
		// can
		for (ScheduleLoop loop : List.of(loopA, loopB, loopA, loopB)) {
			racers.add(threads.submit(() -> {
				while (!stop.get()) {
					loop.tick();
				}
			}));
		}
		int ticks = 20;
		try {
			for (int i = 1; i <= ticks; i++) {
				this.engines.clock.advance(Duration.ofMinutes(1));
				int expected = i;
				await().until(() -> runs(this.engines, "race").size() >= expected);
			}
		}
		finally {
			stop.set(true);
			threads.shutdown();
		}
		for (Future<?> racer : racers) {
			racer.get();
		}
		assertOneRunPerWorkflowId("race", ticks);
		assertThat(workflowIds(this.engines, "race")).first().isEqualTo("race-2026-01-01T00:01:00Z");
		assertThat(a.client().schedules().describe("race").actionCount()).isEqualTo(ticks);
		assertThat(this.engines.jdbc()
			.queryForObject("SELECT count(*) FROM " + this.engines.schema + ".schedule_action", Integer.class))
			.isLessThanOrEqualTo(10);
	}

	@Test
	void aStaleStepCannotFireATimeAgain() {
		WorkflowEngine engine = startEngine();
		ScheduleLoop loop = EngineInternals.scheduleLoop(engine);
		loop.close(); // only this test steps the schedule
		engine.client().schedules().create("stale", everyMinute());
		ScheduleRow read = loop.read("stale").orElseThrow();
		this.engines.clock.advance(Duration.ofMinutes(1));
		assertThat(loop.fireDue(read)).isTrue();
		await().until(() -> ScheduleFixtures.status(this.engines, "stale-2026-01-01T00:01:00Z").equals("COMPLETED"));
		// the same read again: the version moved on, and 00:01 has its record
		assertThat(loop.fireDue(read)).isFalse();
		assertOneRunPerWorkflowId("stale", 1);
		assertThat(engine.client().schedules().describe("stale").actionCount()).isEqualTo(1);
		assertThat(engine.client().schedules().describe("stale").skippedCount()).isZero();
	}

	@Test
	void concurrentStaleStepsFireOnce() throws Exception {
		WorkflowEngine a = startEngine();
		WorkflowEngine b = startEngine();
		EngineInternals.scheduleLoop(a).close();
		EngineInternals.scheduleLoop(b).close();
		a.client().schedules().create("pair", everyMinute());
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			for (int i = 1; i <= 5; i++) {
				ScheduleRow readA = EngineInternals.scheduleLoop(a).read("pair").orElseThrow();
				ScheduleRow readB = EngineInternals.scheduleLoop(b).read("pair").orElseThrow();
				this.engines.clock.advance(Duration.ofMinutes(1));
				CyclicBarrier barrier = new CyclicBarrier(2);
				Future<Boolean> firstStep = threads.submit(() -> {
					barrier.await();
					return EngineInternals.scheduleLoop(a).fireDue(readA);
				});
				Future<Boolean> secondStep = threads.submit(() -> {
					barrier.await();
					return EngineInternals.scheduleLoop(b).fireDue(readB);
				});
				assertThat(List.of(firstStep.get(), secondStep.get())).containsExactlyInAnyOrder(true, false);
			}
		}
		finally {
			threads.shutdown();
		}
		await().until(() -> a.client().schedules().describe("pair").runningWorkflowIds().isEmpty());
		assertOneRunPerWorkflowId("pair", 5);
		assertThat(a.client().schedules().describe("pair").actionCount()).isEqualTo(5);
	}

	@Test
	void aRepeatedBackfillFiresEachTimeOnce() {
		WorkflowEngine engine = startEngine();
		engine.client().schedules().create("again", everyMinute());
		Instant start = Instant.parse("2025-12-30T00:00:00Z");
		Instant end = start.plus(Duration.ofMinutes(4));
		assertThat(engine.client().schedules().backfill("again", start, end)).hasSize(4);
		await().until(() -> engine.client().schedules().describe("again").runningWorkflowIds().isEmpty());
		// the runs closed, so only the firing records stand between a retried backfill
		// and duplicates
		assertThat(engine.client().schedules().backfill("again", start, end.plus(Duration.ofMinutes(1))))
			.extracting(ScheduleActionResult::workflowId)
			.containsExactly("again-2025-12-30T00:04:00Z");
		assertOneRunPerWorkflowId("again", 5);
	}

	@Test
	void daylightSavingTransitionsFireEachLocalTimeOnce() {
		this.engines.clock.set(Instant.parse("2026-03-28T12:00:00Z"));
		WorkflowEngine engine = startEngine();
		// 02:30 does not exist in Berlin on 2026-03-29: it fires at 03:30 local (01:30
		// UTC)
		engine.client()
			.schedules()
			.create("spring",
					Schedule
						.of(ScheduleSpec.cron("0 30 2 * * *", ZoneId.of("Europe/Berlin")),
								ScheduleAction.startWorkflow(Tick::run, "s"))
						.withCatchupWindow(Duration.ofDays(2))
						.withOverlapPolicy(ScheduleOverlapPolicy.ALLOW_ALL));
		assertThat(engine.client().schedules().describe("spring").nextActionTimes())
			.startsWith(Instant.parse("2026-03-29T01:30:00Z"), Instant.parse("2026-03-30T00:30:00Z"));
		for (int hour = 0; hour < 48; hour++) {
			this.engines.clock.advance(Duration.ofHours(1));
			EngineInternals.scheduleLoop(engine).tick();
		}
		await().until(() -> workflowIds(this.engines, "spring").size() == 2);
		assertThat(workflowIds(this.engines, "spring")).containsExactly("spring-2026-03-29T01:30:00Z",
				"spring-2026-03-30T00:30:00Z");

		// 01:30 happens twice in New York on 2026-11-01: only the first (EDT, 05:30 UTC)
		// fires
		this.engines.clock.set(Instant.parse("2026-10-31T12:00:00Z"));
		engine.client()
			.schedules()
			.create("fall",
					Schedule
						.of(ScheduleSpec.cron("0 30 1 * * *", ZoneId.of("America/New_York")),
								ScheduleAction.startWorkflow(Tick::run, "f"))
						.withCatchupWindow(Duration.ofDays(2))
						.withOverlapPolicy(ScheduleOverlapPolicy.ALLOW_ALL));
		assertThat(engine.client().schedules().describe("fall").nextActionTimes())
			.startsWith(Instant.parse("2026-11-01T05:30:00Z"), Instant.parse("2026-11-02T06:30:00Z"));
		for (int quarter = 0; quarter < 4 * 48; quarter++) {
			this.engines.clock.advance(Duration.ofMinutes(15));
			EngineInternals.scheduleLoop(engine).tick();
		}
		await().until(() -> workflowIds(this.engines, "fall").size() == 2);
		assertThat(workflowIds(this.engines, "fall")).containsExactly("fall-2026-11-01T05:30:00Z",
				"fall-2026-11-02T06:30:00Z");
	}

}
